"""Commit ranges for the pre-push hook: what a push adds, and the base it is judged from.

Plain values only: hex oids. Commits are listed oldest first with their first parent
(None for a root commit), because every commit is checked against its first parent (a merge
therefore against the line it was merged into, which covers everything it brings in).
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.errors import GitCommandError
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.repository import Repository


@dataclass(frozen=True)
class RangeCommit:
    """A commit of a range with its first parent (None: a root commit)."""

    oid: str
    first_parent: str | None


def commit_exists(repo: Repository, oid: str) -> bool:
    """Whether `oid` names a commit (or a tag of one) this repository holds."""
    result = run_git(["cat-file", "-e", f"{oid}^{{commit}}"], cwd=repo.common_dir, check=False)
    return result.returncode == 0


def resolve_commit(repo: Repository, ref: str) -> str | None:
    """The commit `ref` points at, or None when there is no such ref."""
    result = run_git(["rev-parse", "-q", "--verify", f"{ref}^{{commit}}"], cwd=repo.common_dir,
                     check=False)
    return result.stdout.decode("ascii").strip() if result.returncode == 0 else None


def merge_base(repo: Repository, one: str, other: str) -> str | None:
    """The best common ancestor of two commits; None when their histories are unrelated."""
    result = run_git(["merge-base", one, other], cwd=repo.common_dir, check=False)
    if result.returncode == 1 and not result.stdout:
        return None
    if result.returncode != 0:
        raise GitCommandError(["git", "merge-base", one, other], result.returncode,
                              decode_path(result.stderr))
    return result.stdout.decode("ascii").strip()


def commits_between(repo: Repository, base: str | None, tip: str) -> list[RangeCommit]:
    """Commits reachable from `tip` but not from `base` (None: all of them), oldest first."""
    args = ["rev-list", "--reverse", "--topo-order", "--parents", tip]
    if base is not None:
        args += ["--not", base]
    out = run_git([*args, "--"], cwd=repo.common_dir).stdout.decode("ascii")
    commits = []
    for line in out.splitlines():
        oids = line.split()
        commits.append(RangeCommit(oids[0], oids[1] if len(oids) > 1 else None))
    return commits
