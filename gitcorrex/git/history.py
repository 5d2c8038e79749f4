"""Commit history as plain values: resolving a range's ends, walking it, finding merge bases.

Used by the CI range gate, which must judge the real objects: replace refs and grafts are
switched off (process.REAL_OBJECTS), and a shallow history that cuts the range is reported
instead of silently walked as if its boundary commits were roots. "Not found" is None or an
empty result; a git failure raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gitcorrex.errors import GitCommandError
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.repository import Repository


@dataclass(frozen=True)
class RangeCommit:
    """One commit of a range: its parents (first parent first), tree and subject line."""

    sha: str
    parents: tuple[str, ...]
    tree: str
    subject: str


@dataclass(frozen=True)
class ShallowInfo:
    """Whether the clone is shallow, and its boundary commits (whose parents are missing)."""

    shallow: bool
    boundary: frozenset[str]


def history_cwd(repo: Repository) -> Path:
    """Where to run git so HEAD means this worktree's HEAD (bare: the git dir)."""
    return repo.work_tree or repo.git_dir


def run_history_git(
    repo: Repository, args: list[str], *, check: bool = True, stdin: bytes | None = None
) -> bytes:
    """Run git from this worktree, on the real objects (no replace refs, no grafts: as every
    git run_git starts); stdout bytes."""
    result = run_git(args, cwd=history_cwd(repo), check=check, stdin=stdin)
    return result.stdout if result.returncode == 0 else b""


def resolve_commit(repo: Repository, rev: str) -> str | None:
    """The commit `rev` names (peeling tags), or None when this clone has no such commit."""
    out = run_history_git(
        repo,
        ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"],
        check=False,
    )
    return out.decode("ascii").strip() or None


def tree_of(repo: Repository, commit: str) -> str:
    """The tree of a commit known to exist."""
    out = run_history_git(repo, ["rev-parse", "--verify", f"{commit}^{{tree}}"])
    return out.decode("ascii").strip()


def names_object(repo: Repository, rev: str) -> bool:
    """Whether `rev` names any object at all (a tree or blob is not a commit, but exists)."""
    out = run_history_git(
        repo, ["rev-parse", "--verify", "--quiet", "--end-of-options", rev], check=False
    )
    return bool(out.strip())


def shallow_info(repo: Repository) -> ShallowInfo:
    """`git rev-parse --is-shallow-repository`, plus the boundary listed in the shallow file."""
    out = run_history_git(
        repo,
        ["rev-parse", "--path-format=absolute", "--is-shallow-repository", "--git-path", "shallow"],
    )
    flag, shallow_path = decode_path(out).split("\n")[:2]
    if flag != "true":
        return ShallowInfo(False, frozenset())
    try:
        lines = Path(shallow_path).read_text(encoding="ascii").split()
    except OSError:
        lines = []
    return ShallowInfo(True, frozenset(lines))


def merge_bases(repo: Repository, base: str, head: str) -> list[str]:
    """Every best common ancestor of two commits; [] when they share no history."""
    out = run_history_git(repo, ["merge-base", "--all", base, head], check=False)
    return out.decode("ascii").split()


def range_commits(repo: Repository, base: str, head: str) -> list[RangeCommit]:
    """`git rev-list base..head`, parents before children, in one process.

    A commit whose parent object is missing (a broken or partial clone) makes git fail:
    GitCommandError (exit 3), never a shorter range.
    """
    args = [
        "rev-list",
        "--reverse",
        "--topo-order",
        "--parents",
        "--format=%T %s",
        head,
        f"^{base}",
        "--",
    ]
    lines = decode_path(run_history_git(repo, args)).split("\n")
    commits = []
    for index in range(0, len(lines) - 1, 2):
        header, body = lines[index], lines[index + 1]
        if not header.startswith("commit "):
            raise GitCommandError(["git", *args], 0, f"unexpected rev-list output: {header!r}")
        sha, *parents = header.removeprefix("commit ").split(" ")
        tree, _, subject = body.partition(" ")
        commits.append(RangeCommit(sha, tuple(parents), tree, subject))
    return commits
