"""Creating small repositories from scratch (the demo), with a local identity so it works
on a machine where git has never been configured."""

from __future__ import annotations

from pathlib import Path

from gitcorrex.git.process import run_git

DEMO_IDENTITY = ("git correx demo", "demo@correx.invalid")


def create_repository(path: Path) -> None:
    """`git init` with a repository-local identity and `main` as the branch."""
    run_git(["init", "-q", "-b", "main", str(path)], cwd=path.parent)
    run_git(["config", "user.name", DEMO_IDENTITY[0]], cwd=path)
    run_git(["config", "user.email", DEMO_IDENTITY[1]], cwd=path)


def commit_all(path: Path, message: str) -> None:
    """Stage everything and commit, exactly as a user would."""
    run_git(["add", "-A"], cwd=path)
    run_git(["commit", "-q", "--no-verify", "-m", message], cwd=path)
