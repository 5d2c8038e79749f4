"""Which ledger commit brought a line into a note: the commit whose signature vouches for it.

Walks back from the tip, following any parent whose note on the subject still holds the
line (merges made by `sync` included), until the line is absent from every parent. Each
note blob is searched once, so an unchanged note costs one tree lookup per commit.
"""

from __future__ import annotations

from typing import Any

import pygit2

from gitcorrex.git.notes_lookup import note_blob_ids
from gitcorrex.git.repository import Repository


def introducing_commit(repo: Repository, tip: str, subject: str, needle: bytes) -> str | None:
    """The oldest commit on a chain from `tip` whose note on `subject` holds `needle`;
    None when the note at `tip` does not hold it."""
    handle = repo.shared_libgit2()
    seen: dict[pygit2.Oid, bool] = {}
    current: Any = handle.get(tip)
    if not _holds(handle, current, subject, needle, seen):
        return None
    while True:
        parents = current.parents
        holder = next((p for p in parents if _holds(handle, p, subject, needle, seen)), None)
        if holder is None:
            return str(current.id)
        current = holder


def _holds(handle: pygit2.Repository, commit: Any, subject: str, needle: bytes,
           seen: dict[pygit2.Oid, bool]) -> bool:
    for blob in note_blob_ids(commit.tree, subject):
        if blob not in seen:
            obj: Any = handle[blob]
            seen[blob] = needle in obj.data
        if seen[blob]:
            return True
    return False
