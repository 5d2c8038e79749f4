"""The one table from a result's conclusion to the exit code (`CONCLUSION_CODES` in
cli/boundary.py), held against the documented codes: README "Exit codes" and the manual's
EXIT STATUS (cli/manual.py), whose meanings begin with the conclusion's own words."""

from __future__ import annotations

import re

import pytest

from gitcorrex.cli.boundary import CONCLUSION_CODES, run_guarded
from gitcorrex.cli.manual import EXIT_CODES as MANUAL_CODES
from gitcorrex.model.conclusion import Conclusion
from tests.conftest import REPO_ROOT


def readme_codes() -> dict[int, str]:
    """README's "Exit codes" table: code → meaning (the numeric rows)."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return {int(code): meaning for code, meaning in
            re.findall(r"^\| (\d+) \| (.+) \|$", section, re.MULTILINE)}


def test_every_conclusion_has_a_code() -> None:
    assert set(CONCLUSION_CODES) == set(Conclusion)


@pytest.mark.parametrize("conclusion", list(Conclusion))
def test_a_conclusion_s_code_is_documented_with_its_words(conclusion: Conclusion) -> None:
    code = int(CONCLUSION_CODES[conclusion])
    manual = dict(MANUAL_CODES)
    assert readme_codes()[code].startswith(conclusion.value), readme_codes()[code]
    assert manual[str(code)].startswith(conclusion.value), manual[str(code)]


def test_the_codes_are_the_documented_ones() -> None:
    assert {c.value: int(code) for c, code in CONCLUSION_CODES.items()} == {
        "ok": 0, "check failed": 1, "unavailable": 3}


@pytest.mark.parametrize("conclusion", list(Conclusion))
def test_the_boundary_exits_with_the_table_s_code(conclusion: Conclusion) -> None:
    assert run_guarded(lambda: conclusion) == CONCLUSION_CODES[conclusion]


def test_a_code_an_inner_entry_already_decided_passes_through() -> None:
    assert run_guarded(lambda: 2) == 2


def test_a_body_that_concludes_nothing_is_a_bug(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_guarded(lambda: None) == 4  # type: ignore[arg-type,return-value]
    assert "internal error (a bug)" in capsys.readouterr().err
