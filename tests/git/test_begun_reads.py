"""Reads begun early (git/process.py `begin_git`): a begun read answers only the same read
asked from the same directory; anything else runs git as before."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gitcorrex.git.process import _BEGUN, begin_git, run_git
from tests.conftest import git

TOP = ("rev-parse", "--show-toplevel")


def test_a_read_begun_elsewhere_never_answers_for_another_repository(
        make_repo: Callable[..., Path]) -> None:
    one, other = make_repo("one"), make_repo("other")
    begin_git(TOP, cwd=one)
    try:
        assert run_git(TOP, cwd=other).stdout.decode().strip() == str(other.resolve())
        assert run_git(TOP, cwd=one).stdout.decode().strip() == str(one.resolve())
    finally:
        _BEGUN.clear()


def test_a_begun_read_is_taken_once_and_then_git_runs_again(
        make_repo: Callable[..., Path]) -> None:
    """The begun answer is the one git gave when it began: a later read of the same
    command (after a change) runs git again."""
    repo = make_repo()
    head = ("rev-parse", "HEAD")
    begin_git(head, cwd=repo / ".")
    first = run_git(head, cwd=repo).stdout
    (repo / "next.txt").write_text("x\n")
    git(repo, "add", "next.txt")
    git(repo, "commit", "-q", "-m", "next")
    assert run_git(head, cwd=repo).stdout != first
    assert not _BEGUN


def test_a_read_with_its_own_environment_or_input_runs_its_own_git(
        make_repo: Callable[..., Path]) -> None:
    repo = make_repo()
    listing = ("cat-file", "--batch-check")
    begin_git(listing, cwd=repo, stdin=b"HEAD\n")
    begin_git(TOP, cwd=repo)
    try:
        assert run_git(listing, cwd=repo, stdin=b"HEAD^{tree}\n").stdout.split()[1] == b"tree"
        assert run_git(TOP, cwd=repo, env={"GIT_WORK_TREE": str(repo / ".git")}).stdout \
            .decode().strip() == str((repo / ".git").resolve())
        assert len(_BEGUN) == 2  # neither was taken
        assert run_git(listing, cwd=repo, stdin=b"HEAD\n").stdout.split()[1] == b"commit"
    finally:
        _BEGUN.clear()
