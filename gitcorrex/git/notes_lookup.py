"""Many notes read at one ledger tip in one pass: the batched lookup behind `log`/`report`.

The notes tree is opened once and each subject is looked up by path (at every fanout git
may have written), so 1,000 commits cost 1,000 in-process tree lookups, not 1,000 processes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pygit2
from pygit2.enums import ObjectType

from gitcorrex.errors import UnavailableError
from gitcorrex.git.repository import Repository


def read_notes_for(
    repo: Repository, tip: str | None, subjects: Iterable[str]
) -> dict[str, bytes]:
    """subject → note bytes at `tip`; a subject without a note is absent (unverified)."""
    if tip is None:
        return {}
    handle = repo.shared_libgit2()
    commit = handle.get(tip)
    if not isinstance(commit, pygit2.Commit):
        raise UnavailableError(f"ledger tip {tip} is not a commit in {repo.git_dir}",
                               hint="run `git fsck`; fetch the ledger ref again")
    root = commit.tree
    found: dict[str, bytes] = {}
    pygit2.settings.enable_strict_hash_verification(False)  # as git does outside fsck
    try:
        for subject in dict.fromkeys(subjects):
            parts = [_blob_data(handle, blob) for blob in note_blob_ids(root, subject)]
            if parts:
                found[subject] = b"".join(parts)
    finally:
        pygit2.settings.enable_strict_hash_verification(True)
    return found


def note_blob_ids(root: pygit2.Tree, subject: str) -> list[pygit2.Oid]:
    """The blobs holding the note on `subject` under the notes tree `root`, in tree order
    (deeper fanouts first, as a full read yields them); [] when it has no note."""
    return list(_blob_ids(root, subject))


def _blob_ids(tree: pygit2.Tree, rest: str) -> Iterator[pygit2.Oid]:
    if len(rest) > 2 and rest[:2] in tree:
        sub: Any = tree[rest[:2]]
        if sub.type == ObjectType.TREE:
            yield from _blob_ids(sub, rest[2:])
    if rest in tree:
        entry: Any = tree[rest]
        if entry.type == ObjectType.BLOB:
            yield entry.id


def _blob_data(handle: pygit2.Repository, oid: pygit2.Oid) -> bytes:
    blob: Any = handle[oid]
    data: bytes = blob.data
    return data if data.endswith(b"\n") else data + b"\n"
