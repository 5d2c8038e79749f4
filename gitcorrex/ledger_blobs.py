"""The ledger's notes read by blob id with the git binary: the reads of the paths that must
load neither pygit2 nor pydantic (`session status`, `log`, the pre-commit hook).

Beside `ledger/` rather than in it: importing the package loads pygit2 (~70 ms, more than a
whole light read). A note's blob ids identify its content, so a reader keeps what it derives
from them (`git/fold_store.py`) and reads the blobs only when they changed. `ref_setting`
is the value of `git config correx.ref` (None: the default ref). A ref that cannot be read
gives None: the caller's full path (`ledger/`) says why.
"""

from __future__ import annotations

from pathlib import Path

from gitcorrex.git.note_reads import expand_notes_ref, note_blobs_for, read_blob_map


def note_blobs(where: Path, ref_setting: str | None, subject: str) -> list[str] | None:
    """The blobs of `subject`'s note at the ledger's tip, in read order; [] for no note."""
    found = notes_blobs(where, ref_setting, [subject])
    return None if found is None else found.get(subject, [])


def notes_blobs(where: Path, ref_setting: str | None,
                subjects: list[str]) -> dict[str, list[str]] | None:
    """subject → the blobs of its note at the ledger's tip (absent: no note), for many
    subjects in one `git ls-tree`."""
    return note_blobs_for(where, expand_notes_ref(ref_setting), subjects)


def read_notes(where: Path, blobs: dict[str, list[str]]) -> dict[str, bytes]:
    """subject → its note's bytes (its blobs in order), every blob read in one process."""
    contents = read_blob_map(where, [oid for oids in blobs.values() for oid in oids])
    return {subject: b"".join(contents[oid] for oid in oids) for subject, oids in blobs.items()}
