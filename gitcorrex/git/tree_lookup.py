"""Looking up a few paths in a tree without listing it: a brief names tens of files, a
state tree may hold 100,000 (listing one that size costs ~150 ms, these lookups ~1 ms)."""

from __future__ import annotations

from collections.abc import Iterable

import pygit2

from gitcorrex.errors import UnavailableError
from gitcorrex.git.repository import Repository

GITLINK_MODE = 0o160000


def path_modes(repo: Repository, tree: str, paths: Iterable[str]) -> dict[str, int | None]:
    """Each path's entry mode in `tree` (a gitlink is 0o160000 even when its commit is not
    in this repository); None where the tree has no such entry. A missing tree raises."""
    handle = repo.shared_libgit2()
    try:
        root = handle[tree].peel(pygit2.Tree)
    except (KeyError, ValueError, pygit2.GitError) as exc:
        raise UnavailableError(f"tree {tree} is not in {repo.git_dir}",
                               hint="compute the state again; run `git fsck` if it persists"
                               ) from exc
    modes: dict[str, int | None] = {}
    for path in paths:
        try:
            modes[path] = int(root[path].filemode)
        except (KeyError, ValueError):
            modes[path] = None
    return modes
