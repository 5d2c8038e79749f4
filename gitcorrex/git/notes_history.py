"""Which ledger commit brought a line into a note: the commit whose signature vouches for it.

Walks back from the tip, following any parent whose note on the subject still holds the
line (merges made by `sync` included), until the line is absent from every parent. Each
note blob is searched once, so an unchanged note costs one tree lookup per commit.

The walk reads each commit's tree and parents from the commit object itself: libgit2 gives
a parsed commit the parents `info/grafts` and `.git/shallow` say (git applies `refs/replace/*`
too), and a graft that skips a forged commit would make the signed commit above it the one
that "introduced" the forged line. A parent this repository lacks (a shallow ledger) means
the answer cannot be known: None, never the commit at the boundary.
"""

from __future__ import annotations

from typing import NamedTuple

import pygit2
from pygit2.enums import ObjectType

from gitcorrex.git.notes_lookup import note_blob_ids
from gitcorrex.git.repository import Repository


class RecordedCommit(NamedTuple):
    """A commit as its object records it (grafts and replace refs ignored)."""

    id: str
    tree: pygit2.Oid
    parents: list[str]


def introducing_commit(repo: Repository, tip: str, subject: str, needle: bytes) -> str | None:
    """The oldest commit on a chain from `tip` whose note on `subject` holds `needle`;
    None when the note at `tip` does not hold it, or an object on the way is missing."""
    handle = repo.shared_libgit2()
    seen: dict[pygit2.Oid, bool] = {}
    current = recorded_commit(handle, tip)
    if current is None or not _holds(handle, current, subject, needle, seen):
        return None
    while True:
        parents = [recorded_commit(handle, parent) for parent in current.parents]
        found = [(parent, _holds(handle, parent, subject, needle, seen)) for parent in parents]
        if any(held is None for _, held in found):
            return None
        holder = next((parent for parent, held in found if held and parent is not None), None)
        if holder is None:
            return current.id
        current = holder


def recorded_commit(handle: pygit2.Repository, commit: str) -> RecordedCommit | None:
    """`commit` as its object records it; None when the repository has no such commit."""
    try:
        kind, data = handle.odb.read(pygit2.Oid(hex=commit))
    except (KeyError, ValueError, pygit2.GitError):
        return None
    tree, parents = None, []
    for line in data.split(b"\n") if kind == ObjectType.COMMIT else ():
        if line.startswith(b"tree ") and tree is None:  # `tree` first, then each `parent`
            tree = pygit2.Oid(hex=line[5:].decode("ascii"))
        elif line.startswith(b"parent "):
            parents.append(line[7:].decode("ascii"))
        else:
            break
    return RecordedCommit(commit, tree, parents) if tree is not None else None


def _holds(handle: pygit2.Repository, commit: RecordedCommit | None, subject: str,
           needle: bytes, seen: dict[pygit2.Oid, bool]) -> bool | None:
    """Whether the note on `subject` in `commit` holds `needle`; None when an object is
    missing (the answer cannot be known)."""
    root = handle.get(commit.tree) if commit is not None else None
    if not isinstance(root, pygit2.Tree):
        return None
    for blob in note_blob_ids(root, subject):
        if blob not in seen:
            obj = handle.get(blob)
            if not isinstance(obj, pygit2.Blob):
                return None
            seen[blob] = needle in obj.data
        if seen[blob]:
            return True
    return False
