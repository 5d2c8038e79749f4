"""A throwaway detached worktree holding exactly one tree, for `verify --isolated`.

Uses `git worktree` itself (checkout honours smudge filters and attributes exactly as git
does) on an unreferenced commit that wraps the tree; removed and pruned afterwards.

A run killed by SIGKILL removes nothing: its directory and git's record of it
(`worktrees/<id>`, whose `gitdir` file names the directory) stay. So the directory is named
for its owner (`correx-isolated-<pid>-<start>-…`, git/owned_files.py), and every isolated
run first removes the directories of this repository's worktrees whose owner is gone, then
lets `git worktree prune` drop their records. A live run's worktree is never touched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygit2

from gitcorrex.git import owned_files
from gitcorrex.git.process import run_git
from gitcorrex.git.repository import Repository

WRAPPER_SIGNATURE = ("git correx", "correx@localhost")
HOLDER_PREFIX = "correx-isolated-"


@contextmanager
def temporary_worktree(repo: Repository, tree_oid: str) -> Iterator[Path]:
    """Yield the path of a fresh worktree checked out at `tree_oid`; always cleaned up."""
    sweep_dead_worktrees(repo)
    commit = _wrap_tree(repo, tree_oid)
    holder = Path(tempfile.mkdtemp(prefix=HOLDER_PREFIX + owned_files.owner_tag()))
    path = holder / "workspace"
    run_git(["worktree", "add", "--detach", "--quiet", str(path), commit], cwd=repo.root)
    try:
        yield path
    finally:
        run_git(["worktree", "remove", "--force", "--force", str(path)], cwd=repo.root,
                check=False)
        shutil.rmtree(holder, ignore_errors=True)
        run_git(["worktree", "prune"], cwd=repo.root, check=False)


def _wrap_tree(repo: Repository, tree_oid: str) -> str:
    """An unreferenced commit whose tree is `tree_oid` (worktrees check out commits)."""
    handle = repo.libgit2()
    signature = pygit2.Signature(*WRAPPER_SIGNATURE, 0, 0)
    oid = handle.create_commit(None, signature, signature, "git correx isolated verify",
                               pygit2.Oid(hex=tree_oid), [])
    return str(oid)


def sweep_dead_worktrees(repo: Repository) -> list[Path]:
    """Remove the directories of this repository's isolated worktrees whose run is gone, and
    git's records of them; the directories removed. Unreadable records are left alone."""
    removed: list[Path] = []
    for holder in _isolated_holders(repo.common_dir / "worktrees"):
        if not owned_files.is_owner_alive(holder.name, HOLDER_PREFIX):
            shutil.rmtree(holder, ignore_errors=True)
            removed.append(holder)
    if removed:
        run_git(["worktree", "prune"], cwd=repo.root, check=False)
    return removed


def _isolated_holders(records: Path) -> list[Path]:
    """The holder directory of each worktree git records (`worktrees/<id>/gitdir` names
    `<holder>/workspace/.git`) made by an isolated run; none when there are no records."""
    try:
        ids = list(os.scandir(records))
    except OSError:
        return []
    holders: list[Path] = []
    for entry in ids:
        try:
            gitdir = Path(entry.path, "gitdir").read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            continue
        holder = Path(gitdir).parent.parent
        if holder.name.startswith(HOLDER_PREFIX):
            holders.append(holder)
    return holders
