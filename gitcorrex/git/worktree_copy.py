"""A throwaway detached worktree holding exactly one tree, for `verify --isolated`.

Uses `git worktree` itself (checkout honours smudge filters and attributes exactly as git
does) on an unreferenced commit that wraps the tree; removed and pruned afterwards.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygit2

from gitcorrex.git.process import run_git
from gitcorrex.git.repository import Repository

WRAPPER_SIGNATURE = ("git correx", "correx@localhost")


@contextmanager
def temporary_worktree(repo: Repository, tree_oid: str) -> Iterator[Path]:
    """Yield the path of a fresh worktree checked out at `tree_oid`; always cleaned up."""
    commit = _wrap_tree(repo, tree_oid)
    holder = Path(tempfile.mkdtemp(prefix="correx-isolated-"))
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
