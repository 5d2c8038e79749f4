"""Deterministic command selection: --expect, then the stage, then the default."""

from __future__ import annotations

import hashlib
import json

import pytest

from gitcorrex.errors import ConfigError, ExitCode
from gitcorrex.model.profile import Profile
from gitcorrex.profiles.load import parse_profile
from gitcorrex.profiles.selection import ResolvedCommand, Selection, select_expectation

PROFILE = """\
version = 1
[commands]
build = "python -m compileall -q src"
test  = { run = "python -m pytest -q 'tests/a b'", timeout = "10m", requires = ["pyproject.toml"] }
setup = "pip install -e ."
lint = "ruff check ."
[expectations]
test = ["build", "test"]
full = { commands = ["build", "test"], setup = "setup" }
lint = ["lint"]
docs = []
[defaults]
expectation = "lint"
timeout = "30m"
[stages.implement]
build_expectation = "test"
writes = ["/src/**", "/tests/**"]
[stages.review]
"""


def profile(text: str = PROFILE) -> Profile:
    return parse_profile(text.encode(), source=".correx.toml")


def digest_of(selection: Selection, name: str) -> str:
    return next(c.digest for c in selection.commands if c.name == name)


def test_expect_wins_over_stage_and_default() -> None:
    selection = select_expectation(profile(), stage="implement", expect="full")
    assert (selection.expectation, selection.stage) == ("full", "implement")
    assert selection.writes == ["/src/**", "/tests/**"]


def test_stage_build_expectation_wins_over_default() -> None:
    assert select_expectation(profile(), stage="implement", expect=None).expectation == "test"


def test_stage_without_build_expectation_falls_back_to_default() -> None:
    selection = select_expectation(profile(), stage="review", expect=None)
    assert (selection.expectation, selection.writes) == ("lint", [])


def test_default_expectation_without_stage() -> None:
    selection = select_expectation(profile(), stage=None, expect=None)
    assert (selection.expectation, selection.stage, selection.writes) == ("lint", None, [])


def test_commands_resolve_in_order_with_argv_timeout_and_requires() -> None:
    selection = select_expectation(profile(), stage=None, expect="test")
    build, test = selection.commands
    assert build.name == "build" and build.argv == ["python", "-m", "compileall", "-q", "src"]
    assert (build.timeout_s, build.requires) == (1800, [])
    assert test.argv == ["python", "-m", "pytest", "-q", "tests/a b"]
    assert (test.timeout_s, test.requires) == (600, ["pyproject.toml"])
    assert selection.setup is None


def test_setup_is_resolved_only_when_the_expectation_asks() -> None:
    selection = select_expectation(profile(), stage=None, expect="full")
    assert selection.setup is not None
    assert selection.setup.argv == ["pip", "install", "-e", "."]
    assert [c.name for c in selection.commands] == ["build", "test"]


def test_empty_expectation_selects_no_commands() -> None:
    selection = select_expectation(profile(), stage=None, expect="docs")
    assert selection.commands == [] and selection.setup is None


def test_builtin_none_selects_no_commands() -> None:
    selection = select_expectation(profile(), stage="implement", expect="none")
    assert (selection.expectation, selection.commands) == ("none", [])
    assert selection.writes == ["/src/**", "/tests/**"]


def test_unknown_expectation_names_the_choices() -> None:
    with pytest.raises(ConfigError) as caught:
        select_expectation(profile(), stage=None, expect="ful")
    assert caught.value.exit_code == ExitCode.USAGE
    assert caught.value.message == 'unknown expectation "ful"'
    assert "docs, full, lint, none, test" in (caught.value.hint or "")


def test_unknown_stage_names_the_choices() -> None:
    with pytest.raises(ConfigError) as caught:
        select_expectation(profile(), stage="implemnt", expect="test")
    assert caught.value.message == 'unknown stage "implemnt"'
    assert "implement, review" in (caught.value.hint or "")


def test_no_expectation_anywhere_says_how_to_choose() -> None:
    with pytest.raises(ConfigError) as caught:
        select_expectation(profile("version = 1\n"), stage=None, expect=None)
    assert caught.value.message == "no expectation selected"
    assert "--expect" in (caught.value.hint or "")
    assert "defaults.expectation" in (caught.value.hint or "")


def test_digest_is_sha256_of_canonical_argv_and_entry() -> None:
    command = select_expectation(profile(), stage=None, expect="test").commands[1]
    body = {"argv": command.argv, "entry": {"requires": ["pyproject.toml"],
                                            "run": "python -m pytest -q 'tests/a b'",
                                            "timeout_s": 600}}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    assert command.digest == hashlib.sha256(text.encode()).hexdigest()


def test_digest_is_stable_across_loads() -> None:
    first = select_expectation(profile(), stage=None, expect="full")
    second = select_expectation(profile(), stage="implement", expect="full")
    assert first.commands == second.commands and first.setup == second.setup


@pytest.mark.parametrize(("old", "new"), [
    ('"python -m pytest -q \'tests/a b\'"', '"python -m pytest -x \'tests/a b\'"'),
    ('timeout = "10m"', 'timeout = "11m"'),
    ('requires = ["pyproject.toml"]', 'requires = ["setup.cfg"]'),
    ('requires = ["pyproject.toml"]', "requires = []"),
])
def test_digest_changes_with_argv_timeout_or_requires(old: str, new: str) -> None:
    before = digest_of(select_expectation(profile(), stage=None, expect="test"), "test")
    after_text = PROFILE.replace(old, new)
    assert after_text != PROFILE
    after = digest_of(select_expectation(profile(after_text), stage=None, expect="test"), "test")
    assert before != after


def test_digest_follows_the_default_timeout() -> None:
    before = digest_of(select_expectation(profile(), stage=None, expect="test"), "build")
    changed = profile(PROFILE.replace('timeout = "30m"', 'timeout = "31m"'))
    assert digest_of(select_expectation(changed, stage=None, expect="test"), "build") != before


def test_same_argv_spelt_differently_has_a_different_digest() -> None:
    quoted = PROFILE.replace('build = "python -m compileall -q src"',
                             "build = \"python -m compileall -q 'src'\"")
    one = digest_of(select_expectation(profile(), stage=None, expect="test"), "build")
    two = digest_of(select_expectation(profile(quoted), stage=None, expect="test"), "build")
    assert one != two


def test_selection_round_trips_through_json() -> None:
    selection = select_expectation(profile(), stage="implement", expect="full")
    assert Selection.model_validate_json(selection.model_dump_json()) == selection
    assert isinstance(selection.commands[0], ResolvedCommand)
