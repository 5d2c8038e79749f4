"""`git/anchor_policy.py`'s two questions answered in-process by libgit2, for a process that
opened it already (the engine choice of `git/notes.py`): which trees are HEAD's or anchored
at the ledger tip, and what a tree adds beyond HEAD's tree.

Asked with git's plumbing they cost a `git cat-file` on every append and a `git diff-tree`
plus a `git cat-file` on every new tree (~3 ms each); 1,000 appends spent over half their
time there. The answers are the same: a blob counts when HEAD's tree holds no entry of the
same id and mode at its path, as `git diff-tree -r` lists it (gitlinks and subtrees never
count); sizes come from the object headers, and an object that is not stored counts nothing,
as `cat-file --batch-check` then prints no size (it is still a file).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygit2
from pygit2.enums import FileMode

from gitcorrex.git.repository import Repository

_NO_BLOB = (FileMode.TREE, FileMode.COMMIT)


def head_and_anchored(repo: Repository, tip: str | None,
                      trees: Sequence[str]) -> tuple[str | None, set[str]]:
    """HEAD's tree (None: unborn, unreadable, or not needed because every one of `trees` is
    anchored at `tip` already) and those of `trees` anchored at `tip`."""
    anchored = _anchored(repo, tip, trees)
    if anchored.issuperset(trees):
        return None, anchored
    try:
        head: str | None = str(repo.libgit2().revparse_single("HEAD^{tree}").id)
    except (KeyError, ValueError, pygit2.GitError):
        head = None
    return head, anchored


def _anchored(repo: Repository, tip: str | None, trees: Sequence[str]) -> set[str]:
    if tip is None:
        return set()
    root: Any = repo.shared_libgit2()[tip].peel(pygit2.Tree)
    anchored = set()
    for tree in trees:
        try:
            if str(root[f"anchors/{tree[:2]}/{tree[2:]}"].id) == tree:
                anchored.add(tree)
        except KeyError:
            continue
    return anchored


def new_blob_sizes(repo: Repository, head: str | None, tree: str) -> tuple[int, int]:
    """(files, bytes): the blobs `tree` holds at paths where HEAD's tree (None: the empty
    tree) holds another id or mode, counted once each."""
    handle = repo.shared_libgit2()
    new: set[pygit2.Oid] = set()
    _collect(handle, _tree(handle, head), _tree(handle, tree), new)
    odb = handle.odb
    read = odb.read_header if hasattr(odb, "read_header") else odb.read
    sizes = 0
    for oid in new:
        try:
            found = read(oid)
        except (KeyError, ValueError, pygit2.GitError):
            continue
        sizes += found[1] if isinstance(found[1], int) else len(found[1])
    return len(new), sizes


def _tree(handle: pygit2.Repository, oid: str | None) -> pygit2.Tree | None:
    if oid is None:
        return None
    found: Any = handle.get(oid)
    return found.peel(pygit2.Tree) if found is not None else None


def _collect(handle: pygit2.Repository, old: pygit2.Tree | None, new: pygit2.Tree | None,
             found: set[pygit2.Oid]) -> None:
    """Blob ids of `new` not at the same path, id and mode in `old`; equal subtrees skipped."""
    if new is None:
        return
    before = {entry.name: (entry.id, entry.filemode) for entry in old} if old is not None else {}
    for entry in new:
        if before.get(entry.name) == (entry.id, entry.filemode):
            continue
        if entry.filemode == FileMode.TREE:
            prior = before.get(entry.name)
            sub: Any = handle[prior[0]] if prior and prior[1] == FileMode.TREE else None
            _collect(handle, sub, entry, found)  # type: ignore[arg-type]
        elif entry.filemode not in _NO_BLOB:
            found.add(entry.id)
