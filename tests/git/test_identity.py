"""Ledger identities are git's: environment first, sanitised as git does, refused as git does.

Each test runs `git correx` as a real process with the fixture's GIT_AUTHOR_*/GIT_COMMITTER_*
removed from its environment unless the test sets them, and reads the ledger back with git.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import IDENTITY_ENV, git, run_correx
from tests.git.state_helpers import reference_key
from tests.verify.conftest import counting, has_ledger, only_event, runs_counted, write_profile

NOTES_REF = "refs/notes/correx"


@pytest.fixture
def project(make_repo: Callable[..., Path]) -> Path:
    root = make_repo()
    write_profile(root, {"ok": "python3 -c pass"}, {"e": ["ok"]}, default="e")
    return root


def verify_recorded(root: Path, **env: str) -> tuple[str, str]:
    """Verify with only `env` as identity; (event actor, ledger commit "author|committer")."""
    key = reference_key(root)
    result = run_correx(root, "verify", env=env, unset=IDENTITY_ENV)
    assert result.code == 0, result
    actor = only_event(root, key).actor
    people = git(root, "log", "-1", "--format=%an <%ae>|%cn <%ce>", NOTES_REF).strip()
    return f"{actor.name} <{actor.email}>", people


def test_newline_in_user_name_is_stripped_and_the_ledger_stays_readable(project: Path) -> None:
    git(project, "config", "user.name", "a\nb")
    actor, people = verify_recorded(project)
    assert actor == "ab <ada@example.test>"
    assert people == "ab <ada@example.test>|ab <ada@example.test>"
    for command in (["log"], ["replay"], ["show"], ["verify"]):
        result = run_correx(project, *command, unset=IDENTITY_ENV)
        assert result.code == 0, result
    fsck = run_git_fsck(project)
    assert "missingEmail" not in fsck and "error" not in fsck, fsck


def run_git_fsck(root: Path) -> str:
    import subprocess

    proc = subprocess.run(["git", "fsck", "--strict"], cwd=root, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout + proc.stderr


def test_angle_brackets_in_name_and_email_are_stripped_as_git_does(project: Path) -> None:
    git(project, "config", "user.name", "A<d>a")
    git(project, "config", "user.email", "<ada@example.test>")
    actor, people = verify_recorded(project)
    assert actor == "Ada <ada@example.test>"
    assert people == "Ada <ada@example.test>|Ada <ada@example.test>"


def test_identity_from_the_environment_wins_as_in_ci(project: Path, tmp_path: Path) -> None:
    nobody = tmp_path / "nobody"
    nobody.mkdir()
    actor, people = verify_recorded(
        project, HOME=str(nobody), XDG_CONFIG_HOME=str(nobody),
        GIT_AUTHOR_NAME="CI Author", GIT_AUTHOR_EMAIL="author@ci.test",
        GIT_COMMITTER_NAME="CI Bot", GIT_COMMITTER_EMAIL="bot@ci.test")
    assert actor == "CI Author <author@ci.test>"
    assert people == "CI Author <author@ci.test>|CI Bot <bot@ci.test>"


def test_identity_git_refuses_is_exit_2_before_anything_runs(
        make_repo: Callable[..., Path], tmp_path: Path) -> None:
    root = make_repo()
    counter = tmp_path / "runs"
    write_profile(root, {"ok": counting(counter)}, {"e": ["ok"]}, default="e")
    nobody = tmp_path / "nobody"
    nobody.mkdir()
    git(root, "config", "user.useConfigOnly", "true")
    env = {"HOME": str(nobody), "XDG_CONFIG_HOME": str(nobody)}
    result = run_correx(root, "verify", env=env, unset=IDENTITY_ENV)
    assert result.code == 2, result
    assert "git config user.name" in result.stderr and "user.email" in result.stderr
    assert "Traceback" not in result.stderr
    assert runs_counted(counter) == 0 and not has_ledger(root)


def test_an_empty_email_is_refused_with_exit_2(project: Path) -> None:
    env = {"GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": ""}
    result = run_correx(project, "verify", env=env, unset=IDENTITY_ENV[2:])
    assert result.code == 2, result
    assert "empty email" in result.stderr and not has_ledger(project)
