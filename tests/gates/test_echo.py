"""The brief echo diff: exact Jaccard threshold edges, empty briefs, unicode, files, symbols."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gitcorrex.gates.echo import diff_echo, tokens

DEFAULT = Fraction("0.34")


def brief(*requirements: str, **extra: object) -> dict[str, object]:
    return {"requirements": list(requirements), **extra}


def words(count: int, prefix: str = "w") -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def sentence(*groups: list[str]) -> str:
    return " ".join(word for group in groups for word in group)


@pytest.mark.parametrize(("shared", "only_original", "only_restated", "dropped"), [
    (17, 33, 0, False),   # 17/50 = 0.34 exactly: covered
    (17, 34, 0, True),    # 17/51 < 0.34
    (17, 0, 33, False),   # extra restated words count in the union too
    (17, 0, 34, True),
    (1, 2, 0, True),      # 1/3 = 0.333... < 0.34
    (34, 66, 0, False),   # 34/100
    (33, 67, 0, True),    # 33/100
])
def test_default_threshold_edge_is_exact(shared: int, only_original: int, only_restated: int,
                                         dropped: bool) -> None:
    common = words(shared, "c")
    original = sentence(common, words(only_original, "o"))
    restated = sentence(common, words(only_restated, "r"))
    diff = diff_echo(brief(original), brief(restated), DEFAULT)
    assert bool(diff.dropped) is dropped
    assert diff.mismatch is dropped
    if dropped:
        item = diff.dropped[0]
        assert (item.shared, item.union) == (shared, shared + only_original + only_restated)


@pytest.mark.parametrize(("threshold", "dropped"), [
    (Fraction(1, 2), False), (Fraction(51, 100), True), (Fraction(0), False), (Fraction(1), True)])
def test_configured_threshold_decides_a_half_covered_requirement(threshold: Fraction,
                                                                 dropped: bool) -> None:
    diff = diff_echo(brief("alpha beta gamma delta"), brief("alpha beta"), threshold)
    assert bool(diff.dropped) is dropped


def test_threshold_one_accepts_an_exact_restatement_in_other_order_and_case() -> None:
    diff = diff_echo(brief("Add retry, to the client"), brief("the CLIENT to add retry"),
                     Fraction(1))
    assert not diff.mismatch


def test_each_requirement_takes_its_best_restated_match() -> None:
    original = brief("retry failed deliveries", "log every error", "document the flag")
    restated = brief("document the new flag", "retry deliveries that failed")
    diff = diff_echo(original, restated, DEFAULT)
    assert [d.index for d in diff.dropped] == [1]
    assert diff.dropped[0].best is None and diff.dropped[0].shared == 0


def test_empty_brief_has_nothing_to_drop() -> None:
    diff = diff_echo(brief(), brief("anything at all"), DEFAULT)
    assert (diff.requirements, diff.restated, diff.mismatch) == (0, 1, False)


def test_empty_restatement_drops_every_requirement() -> None:
    diff = diff_echo(brief("one thing", "another thing"), brief(), DEFAULT)
    assert [d.index for d in diff.dropped] == [0, 1]
    assert all(d.best is None and d.union == 2 for d in diff.dropped)


def test_requirement_without_words_is_never_dropped() -> None:
    assert not diff_echo(brief("", "—", "!!!"), brief(), DEFAULT).mismatch


def test_both_empty_match() -> None:
    assert not diff_echo(brief(), brief(), DEFAULT).mismatch


def test_unicode_is_normalised_and_case_folded() -> None:
    assert tokens("ÜNÏCODE Straße") == tokens("ünïcode STRASSE") == {"ünïcode", "strasse"}
    full_width = "".join(chr(0xFEE0 + ord(c)) for c in "unicode")
    assert tokens(full_width) == {"unicode"}  # NFKC
    assert tokens("e\u0301te") == tokens("\u00e9te")  # combining accent (NFKC)
    diff = diff_echo(brief("Gérer les données"), brief("gérer LES DONNÉES"), Fraction(1))
    assert not diff.mismatch


def test_non_latin_requirements_compare_by_words() -> None:
    diff = diff_echo(brief("добавить повтор запроса"), brief("повтор запроса добавить"),
                     Fraction(1))
    assert not diff.mismatch
    assert diff_echo(brief("добавить повтор"), brief("удалить всё"), DEFAULT).mismatch


def test_file_the_brief_never_named_is_hallucinated() -> None:
    original = brief("change src/app.py", files=["src/util.py"])
    restated = brief("change src/app.py and src/util.py, and add src/new.py then src/new.py")
    diff = diff_echo(original, restated, DEFAULT)
    assert diff.hallucinated_files == ["src/new.py"]
    assert diff.mismatch and not diff.dropped


def test_symbols_are_reported_but_never_make_a_mismatch() -> None:
    original = brief("make Client.send retry")
    restated = brief("make Client.send() retry via Backoff.delay and sleep_for()")
    diff = diff_echo(original, restated, DEFAULT)
    assert diff.symbols == ["Backoff.delay", "sleep_for"]
    assert not diff.mismatch


def test_bare_file_names_are_not_symbols() -> None:
    diff = diff_echo(brief("x"), brief("x in app.py and README.md"), DEFAULT)
    assert diff.symbols == []


def test_non_string_requirements_are_ignored_by_the_diff() -> None:
    diff = diff_echo({"requirements": ["a b", 3, None]}, {"requirements": "not a list"}, DEFAULT)
    assert diff.requirements == 1 and len(diff.dropped) == 1
