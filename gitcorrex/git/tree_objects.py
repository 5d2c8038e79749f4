"""Whole trees and batches of blobs, in-process: what grounding reads from a state tree.

`list_tree` walks a tree once and returns every non-tree entry with its blob id and mode
(the exact path list of a state key). `read_blobs` reads many blobs on one handle.
`write_flat_tree` / `flat_tree_entries` store and list a set of named blobs as one tree
object (the symbol index), writing only the blobs the object database does not hold yet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import pygit2
from pygit2.enums import FileMode

from gitcorrex.errors import UnavailableError
from gitcorrex.git.local_state import LOCAL_STATE_DIR as LOCAL_STATE_DIR  # re-exported
from gitcorrex.git.local_state import local_state_path as local_state_path
from gitcorrex.git.local_state import read_local_state as read_local_state
from gitcorrex.git.local_state import write_local_state as write_local_state
from gitcorrex.git.process import decode_path
from gitcorrex.git.repository import Repository
from gitcorrex.git.write_faults import translates_write_faults

BLOB_MODES = frozenset({0o100644, 0o100755})
SYMLINK_MODE = 0o120000
GITLINK_MODE = 0o160000


@dataclass(frozen=True)
class TreeEntry:
    """One non-tree entry: a file (100644/100755), a symlink (120000) or a gitlink (160000)."""

    path: str
    oid: str
    mode: int

    @property
    def is_file(self) -> bool:
        return self.mode in BLOB_MODES


def list_tree(repo: Repository, tree: str) -> list[TreeEntry]:
    """Every non-tree entry of `tree`, recursively, sorted by path (git's own order
    differs only for names that sort around `/`). A missing tree raises (exit 3)."""
    handle = repo.shared_libgit2()
    root = _stored_tree(repo, tree)
    entries: list[TreeEntry] = []
    pending: list[tuple[str, pygit2.Tree]] = [("", root)]
    while pending:
        prefix, current = pending.pop()
        for entry in current:
            path = prefix + decode_path(entry.raw_name or b"")
            if entry.filemode == FileMode.TREE:
                pending.append((path + "/", cast(pygit2.Tree, handle[entry.id])))
            else:
                entries.append(TreeEntry(path, str(entry.id), int(entry.filemode)))
    entries.sort(key=lambda item: item.path)
    return entries


def path_modes(repo: Repository, tree: str, paths: Iterable[str]) -> dict[str, int | None]:
    """Each path's entry mode in `tree`, looked up without listing the tree (a brief names
    tens of files, a state tree may hold 100,000: ~1 ms against ~150 ms). A gitlink is
    GITLINK_MODE even when its commit is not here; None where there is no such entry."""
    root = _stored_tree(repo, tree)
    modes: dict[str, int | None] = {}
    for path in paths:
        try:
            modes[path] = int(root[path].filemode)
        except (KeyError, ValueError):
            modes[path] = None
    return modes


def _stored_tree(repo: Repository, tree: str) -> pygit2.Tree:
    """The tree object itself; a missing tree raises (exit 3)."""
    try:
        return repo.shared_libgit2()[tree].peel(pygit2.Tree)
    except (KeyError, ValueError, pygit2.GitError) as exc:
        raise UnavailableError(f"tree {tree} is not in {repo.git_dir}",
                               hint="compute the state again; run `git fsck` if it persists"
                               ) from exc


def read_blobs(repo: Repository, oids: Iterable[str]) -> dict[str, bytes]:
    """The bytes of each blob; a blob the object database lacks raises (exit 3)."""
    odb = repo.shared_libgit2().odb
    found: dict[str, bytes] = {}
    for oid in oids:
        if oid in found:
            continue
        try:
            _, data = odb.read(oid)
        except (KeyError, ValueError, pygit2.GitError) as exc:
            raise UnavailableError(f"blob {oid} is missing from {repo.git_dir}",
                                   hint="run `git fsck`; fetch the objects again") from exc
        found[oid] = data
    return found


_HANDLES: dict[tuple[int, str], pygit2.Repository] = {}


def read_blobs_at(git_dir: str, oids: Sequence[str]) -> dict[str, bytes]:
    """`read_blobs` for a worker process: a handle of its own on the repository at
    `git_dir` (never one inherited through fork), opened once per process."""
    import os

    key = (os.getpid(), git_dir)
    if key not in _HANDLES:
        _HANDLES[key] = pygit2.Repository(git_dir)
    odb = _HANDLES[key].odb
    found: dict[str, bytes] = {}
    for oid in oids:
        try:
            _, found[oid] = odb.read(oid)
        except (KeyError, ValueError, pygit2.GitError) as exc:
            raise UnavailableError(f"blob {oid} is missing from {git_dir}",
                                   hint="run `git fsck`; fetch the objects again") from exc
    return found


@translates_write_faults
def write_flat_tree(repo: Repository, files: Mapping[str, bytes]) -> str:
    """One tree holding `files` (name → bytes) as blobs; returns its oid (idempotent)."""
    handle = repo.shared_libgit2()
    builder = handle.TreeBuilder()
    for name in sorted(files):
        data = files[name]
        oid = pygit2.hash(data)
        if oid not in handle:
            oid = handle.create_blob(data)
        builder.insert(name, oid, FileMode.BLOB)
    return str(builder.write())


def flat_tree_entries(repo: Repository, tree: str) -> dict[str, str] | None:
    """Name → blob id of the blobs directly in `tree`; None when it is missing or not a
    tree."""
    try:
        obj = repo.shared_libgit2()[tree]
    except (KeyError, ValueError, pygit2.GitError):
        return None
    if not isinstance(obj, pygit2.Tree):
        return None
    return {entry.name or "": str(entry.id) for entry in obj
            if entry.filemode in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE)}


def read_blob_if_present(repo: Repository, oid: str) -> bytes | None:
    """The blob's bytes; None when the object database lacks it or it is not a blob."""
    try:
        kind, data = repo.shared_libgit2().odb.read(oid)
    except (KeyError, ValueError, pygit2.GitError):
        return None
    return data if kind == pygit2.enums.ObjectType.BLOB else None
