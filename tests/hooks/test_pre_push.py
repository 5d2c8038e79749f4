"""The pre-push hook runs `git correx check`'s range gate on what a push adds: a topic branch
from the remote's default branch (what CI will check), the default branch from the remote's
tip; fail closed when no base can be known."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import git
from tests.hooks.conftest import assessments, install, run_git, stage_file


@pytest.fixture
def pushing(hooked: Path, tmp_path: Path) -> Path:
    """`hooked` with a bare `origin` holding main, origin/HEAD set, pre-push installed."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(hooked, "remote", "add", "origin", str(remote))
    git(hooked, "push", "-q", "origin", "main")
    git(hooked, "remote", "set-head", "origin", "main")
    install(hooked, "--pre-push")
    return hooked


def commit_unchecked(root: Path, rel: str, message: str) -> str:
    stage_file(root, rel, f"{message}\n")
    git(root, "commit", "-q", "--no-verify", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


def test_push_within_the_manifest_passes(pushing: Path) -> None:
    commit_unchecked(pushing, "src/app.py", "inside")
    result = run_git(pushing, "push", "-q", "origin", "main")
    assert result.code == 0, result


def test_push_of_an_out_of_scope_commit_is_blocked(pushing: Path) -> None:
    bad = commit_unchecked(pushing, "README.md", "outside")
    commit_unchecked(pushing, "src/app.py", "inside")
    result = run_git(pushing, "push", "-q", "origin", "main")
    assert result.code != 0, result
    assert "pre-push: blocked: refs/heads/main to origin's refs/heads/main" in result.stderr
    assert f"  {bad[:12]} outside\n" in result.stderr
    assert "README.md: modified outside the manifest of stage 'implement'" in result.stderr
    assert git(pushing, "ls-remote", "origin", "main").split()[0] != bad


def test_push_block_records_the_commit(pushing: Path) -> None:
    bad = commit_unchecked(pushing, "README.md", "outside")
    assert run_git(pushing, "push", "-q", "origin", "main").code != 0
    (event,) = assessments(pushing)
    assert (event["origin"], event["commit"], event["verdict"]) == ("pre-push", bad, "BLOCK")
    assert event["subjects"] == [git(pushing, "rev-parse", f"{bad}^{{tree}}").strip()]


def test_new_branch_is_checked_against_the_default_branch(pushing: Path) -> None:
    git(pushing, "checkout", "-q", "-b", "topic")
    commit_unchecked(pushing, "docs/guide.md", "outside")
    result = run_git(pushing, "push", "-q", "origin", "topic")
    assert result.code != 0, result
    assert "docs/guide.md: modified outside" in result.stderr


def test_new_branch_without_a_known_default_branch_fails_closed(pushing: Path) -> None:
    git(pushing, "remote", "set-head", "origin", "--delete")
    git(pushing, "checkout", "-q", "-b", "topic")
    commit_unchecked(pushing, "src/app.py", "inside")
    result = run_git(pushing, "push", "-q", "origin", "topic")
    assert result.code != 0, result
    assert "git remote set-head origin --auto" in result.stderr


def test_deleting_a_remote_branch_is_not_checked(pushing: Path) -> None:
    git(pushing, "push", "-q", "--no-verify", "origin", "main:old")
    result = run_git(pushing, "push", "-q", "origin", ":old")
    assert result.code == 0, result


def test_push_without_a_stage_is_not_checked(pushing: Path) -> None:
    git(pushing, "config", "--unset", "correx.stage")
    commit_unchecked(pushing, "README.md", "outside")
    assert run_git(pushing, "push", "-q", "origin", "main").code == 0


def test_merging_the_default_branch_into_a_topic_is_not_blamed(pushing: Path,
                                                                tmp_path: Path) -> None:
    """Paths a merge takes unchanged from the remote's branch were judged there."""
    git(pushing, "checkout", "-q", "-b", "topic")
    commit_unchecked(pushing, "src/app.py", "topic work")
    git(pushing, "push", "-q", "--no-verify", "origin", "topic")
    git(pushing, "checkout", "-q", "main")
    commit_unchecked(pushing, "README.md", "main moved on (reviewed elsewhere)")
    git(pushing, "push", "-q", "--no-verify", "origin", "main")
    git(pushing, "checkout", "-q", "topic")
    git(pushing, "merge", "-q", "--no-verify", "--no-edit", "main")
    result = run_git(pushing, "push", "-q", "origin", "topic")
    assert result.code == 0, result


def test_widening_pushed_earlier_to_a_topic_does_not_count(pushing: Path) -> None:
    git(pushing, "checkout", "-q", "-b", "topic")
    profile = (pushing / ".correx.toml").read_text()
    widened = profile.replace('["/src/**"]', '["/src/**", "/docs/**"]')
    stage_file(pushing, ".correx.toml", widened)
    git(pushing, "commit", "-q", "--no-verify", "-m", "widen")
    git(pushing, "push", "-q", "--no-verify", "origin", "topic")
    commit_unchecked(pushing, "docs/guide.md", "uses the widening")
    result = run_git(pushing, "push", "-q", "origin", "topic")
    assert result.code != 0, result
    assert "docs/guide.md: modified outside" in result.stderr
