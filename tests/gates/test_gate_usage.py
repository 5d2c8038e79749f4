"""What `git correx gate` refuses before any gate runs (exit 2), recording nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.gates.conftest import Correx, artifact, git, kinds, profile, project

PROFILE = profile('[stages.a]\nproduces = ["brief"]\nground_references = true\n'
                  '[stages.e]\nbrief_echo = true\n[stages.g]\nground_references = true\n')


@pytest.mark.parametrize(("args", "message"), [
    ([], "no stage selected"),
    (["--stage", "nope"], 'unknown stage "nope"'),
    (["--stage", "a", "--artifact", "brief"], "is not KIND=FILE"),
    (["--stage", "a", "--artifact", "=x.json"], "is not KIND=FILE"),
    (["--stage", "a", "--artifact", "brief=a.json", "--artifact", "brief=b.json"],
     "given twice"),
    (["--stage", "a", "--session", "bad id!"], "invalid session id"),
    (["--stage", "e"], "needs the 'brief' artifact"),
    (["--stage", "g"], "none was given"),
])
def test_refusals_exit_2_and_record_nothing(make_repo: Callable[..., Path], correx: Correx,
                                            args: list[str], message: str) -> None:
    root = project(make_repo, PROFILE)
    result = correx(root, "gate", *args)
    assert result.code == 2, result
    assert message in result.stderr
    assert "hint:" in result.stderr
    assert kinds(root) == []


def test_echo_needs_the_restatement_too(make_repo: Callable[..., Path],
                                        correx: Correx) -> None:
    root = project(make_repo, PROFILE)
    result = correx(root, "gate", "--stage", "e", "--artifact",
                    artifact(root, "brief", {"requirements": []}))
    assert result.code == 2, result
    assert "needs the 'brief_echo' artifact" in result.stderr


def test_stage_comes_from_git_config_when_not_given(make_repo: Callable[..., Path],
                                                    correx: Correx) -> None:
    root = project(make_repo, PROFILE)
    git(root, "config", "correx.stage", "a")
    result = correx(root, "gate")
    assert result.code == 1, result  # stage a declares a brief that was not supplied
    assert "artifact 'brief' missing" in result.stderr


def test_invalid_profile_is_a_configuration_error(make_repo: Callable[..., Path],
                                                  correx: Correx) -> None:
    root = project(make_repo, profile("[stages.a]\nstatic_analysis = [5]\n"))
    result = correx(root, "gate", "--stage", "a")
    assert result.code == 2, result
    assert ".correx.toml: stages.a.static_analysis[0]: expected a command line string" \
        in result.stderr
