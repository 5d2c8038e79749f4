"""`git correx assess read`: a read relies on the path existing; manifests do not apply."""

from __future__ import annotations

import os
from pathlib import Path

from gitcorrex.manifest.assess import AssessOutcome
from gitcorrex.model.assessment import Rule, Verdict
from tests.manifest.conftest import Correx, outside_dir


def read(correx: Correx, cwd: Path, *paths: str, code: int) -> AssessOutcome:
    result = correx(cwd, "assess", "read", *paths, "--stage", "implement", "--json")
    assert result.code == code, result
    return AssessOutcome.model_validate_json(result.stdout)


def test_read_of_a_present_path_is_allowed(project: Path, correx: Correx) -> None:
    outcome = read(correx, project, "src/app.py", code=0)
    assert (outcome.verdict, outcome.paths[0].rule) == (Verdict.ALLOW, Rule.ALLOW)


def test_read_of_an_absent_path_is_a_reference_block(project: Path, correx: Correx) -> None:
    result = correx(project, "assess", "read", "src/missing.py")
    assert result.code == 1, result
    assert result.stdout.startswith("BLOCK REFERENCE_EXISTS src/missing.py: does not exist")
    assert "fix: check the path first" in result.stdout


def test_read_of_a_dangling_symlink_is_a_reference_block(project: Path,
                                                         correx: Correx) -> None:
    os.symlink("gone.py", project / "src" / "dangling")
    outcome = read(correx, project, "src/dangling", code=1)
    assert outcome.paths[0].rule is Rule.REFERENCE_EXISTS
    assert "symlink" in outcome.paths[0].detail


def test_read_is_not_limited_by_the_write_manifest(project: Path, correx: Correx) -> None:
    outcome = read(correx, project, "docs/guide.md", "README.md", code=0)
    assert [p.rule for p in outcome.paths] == [Rule.ALLOW, Rule.ALLOW]
    assert outcome.manifest == []


def test_read_of_a_directory_and_the_top_level_is_allowed(project: Path,
                                                          correx: Correx) -> None:
    outcome = read(correx, project / "src", ".", "..", code=0)
    assert [p.path for p in outcome.paths] == ["src", ".."]


def test_read_outside_the_work_tree_is_blocked(project: Path, correx: Correx) -> None:
    target = outside_dir(project) / "secret.txt"
    outcome = read(correx, project, str(target), "../elsewhere/secret.txt", code=1)
    assert [p.rule for p in outcome.paths] == [Rule.PATH_OUTSIDE_WORKSPACE] * 2


def test_read_inside_dot_git_is_blocked(project: Path, correx: Correx) -> None:
    outcome = read(correx, project, ".git/config", code=1)
    assert outcome.paths[0].rule is Rule.PATH_NOT_CANONICAL
