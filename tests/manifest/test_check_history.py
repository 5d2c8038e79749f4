"""History the gate cannot walk fails closed (exit 3, with the fetch hint); bad input exits 2."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git
from tests.manifest.range_repos import commit

Correx = Callable[..., CliResult]
FETCH_HINT = "git fetch --unshallow"


@pytest.fixture
def two_ahead(gate_repo: Path) -> Path:
    """main has two commits; feature is two commits ahead, the second out of scope."""
    git(gate_repo, "checkout", "-q", "main")
    commit(gate_repo, "second on main", {"src/app.py": "print(0)\n"})
    git(gate_repo, "checkout", "-q", "-B", "feature")
    commit(gate_repo, "fine", {"src/app.py": "print(2)\n"})
    commit(gate_repo, "sneaky edit", {"protected/keep.txt": "changed\n"})
    return gate_repo


def clone(source: Path, target: Path, *options: str) -> Path:
    git(source.parent, "clone", "-q", *options, f"file://{source}", str(target))
    return target


@pytest.mark.parametrize("spec", ["main", "main...HEAD", "..HEAD", ""])
def test_bad_range_syntax_is_a_usage_error(gate_repo: Path, correx: Correx, spec: str) -> None:
    result = correx(gate_repo, "check", spec)
    assert result.code == 2, result
    assert "BASE..HEAD" in result.stderr


def test_head_defaults_to_head(two_ahead: Path, correx: Correx) -> None:
    result = correx(two_ahead, "check", "main..", "--stage", "impl", "--json")
    assert result.code == 1, result
    assert json.loads(result.stdout)["head"] == git(two_ahead, "rev-parse", "HEAD").strip()


def test_unknown_base_fails_closed(gate_repo: Path, correx: Correx) -> None:
    result = correx(gate_repo, "check", "origin/main..HEAD")
    assert result.code == 3, result
    assert "unknown revision 'origin/main'" in result.stderr
    assert FETCH_HINT in result.stderr and "fetch-depth: 0" in result.stderr


def test_base_that_is_not_a_commit_is_a_usage_error(gate_repo: Path, correx: Correx) -> None:
    result = correx(gate_repo, "check", "main^{tree}..HEAD")
    assert result.code == 2, result
    assert "not a commit" in result.stderr


def test_unrelated_base_fails_closed(gate_repo: Path, correx: Correx) -> None:
    git(gate_repo, "checkout", "-q", "--orphan", "stranger")
    commit(gate_repo, "unrelated root")
    result = correx(gate_repo, "check", "main..stranger")
    assert result.code == 3, result
    assert "shares no history" in result.stderr


def test_shallow_clone_fails_closed_with_the_fetch_hint(
    two_ahead: Path, tmp_path: Path, correx: Correx
) -> None:
    shallow = clone(two_ahead, tmp_path / "shallow", "--depth", "1", "--no-single-branch")
    assert git(shallow, "rev-parse", "--is-shallow-repository").strip() == "true"
    result = correx(shallow, "check", "origin/main..HEAD", "--stage", "impl")
    assert result.code == 3, result
    assert "shallow history" in result.stderr
    assert FETCH_HINT in result.stderr and "fetch-depth: 0" in result.stderr


def test_single_branch_shallow_clone_lacks_the_base(
    two_ahead: Path, tmp_path: Path, correx: Correx
) -> None:
    shallow = clone(two_ahead, tmp_path / "shallow", "--depth", "1")
    result = correx(shallow, "check", "origin/main..HEAD", "--stage", "impl")
    assert result.code == 3, result
    assert FETCH_HINT in result.stderr


def test_shallow_clone_deep_enough_is_checked(
    two_ahead: Path, tmp_path: Path, correx: Correx
) -> None:
    deep = clone(two_ahead, tmp_path / "deep", "--depth", "3", "--branch", "feature")
    git(deep, "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main")
    assert git(deep, "rev-parse", "--is-shallow-repository").strip() == "true"
    result = correx(deep, "check", "origin/main..HEAD", "--stage", "impl")
    assert result.code == 1, result
    assert result.stdout.splitlines()[-1] == "1 violation in 1 commit, 1 in the net diff"


def test_missing_parent_fails_closed(two_ahead: Path, correx: Correx) -> None:
    middle = git(two_ahead, "rev-parse", "HEAD~1").strip()
    (two_ahead / ".git" / "objects" / middle[:2] / middle[2:]).unlink()
    result = correx(two_ahead, "check", "main..HEAD", "--stage", "impl")
    assert result.code == 3, result
    assert FETCH_HINT in result.stderr


def test_fresh_clone_runs_without_a_ledger(two_ahead: Path, tmp_path: Path, correx: Correx) -> None:
    fresh = clone(two_ahead, tmp_path / "fresh", "--branch", "feature")
    result = correx(fresh, "check", "origin/main..HEAD", "--stage", "impl")
    assert result.code == 1, result
    assert "sneaky edit" in result.stdout
    assert git(fresh, "for-each-ref", "refs/notes/") == ""


def test_bare_repository_can_be_checked(two_ahead: Path, tmp_path: Path, correx: Correx) -> None:
    bare = clone(two_ahead, tmp_path / "bare.git", "--bare")
    result = correx(bare, "check", "main..feature", "--stage", "impl")
    assert result.code == 1, result


def test_empty_range_is_ok(gate_repo: Path, correx: Correx) -> None:
    result = correx(gate_repo, "check", "HEAD..HEAD", "--stage", "impl")
    assert result.code == 0, result
    assert result.stdout.startswith("ok: 0 commits and the net diff stay within")


def test_a_graft_cannot_hide_a_commit_from_the_range(two_ahead: Path, correx: Correx) -> None:
    """A commit out of scope, then its revert (the net diff is clean); a graft skipping the
    two would leave nothing to report. The gate walks the real parents."""
    sneaky = git(two_ahead, "rev-parse", "HEAD").strip()
    git(two_ahead, "revert", "--no-edit", "HEAD")
    head, fine = git(two_ahead, "rev-parse", "HEAD", f"{sneaky}~1").split()
    (two_ahead / ".git" / "info").mkdir(exist_ok=True)
    (two_ahead / ".git" / "info" / "grafts").write_text(f"{head} {fine}\n")
    result = correx(two_ahead, "check", "main..HEAD", "--stage", "impl")
    assert result.code == 1, result
    assert sneaky[:12] in result.stdout
