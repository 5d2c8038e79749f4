"""Diverged sessions: the same `seq` recorded as two different events on two clones.

A session's seq numbers are dense and unique within one ledger; two clones that both
continued a session have two histories that cannot be united without renumbering one of
them. That is reported, never merged: a reader would otherwise see two "step 4"s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gitcorrex.git import NoteUnion
from gitcorrex.model.note_lines import LedgerEntry, scan_notes


@dataclass(frozen=True)
class SeqConflict:
    """Session `session` has event `ours` locally and `theirs` remotely at the same seq."""

    session: str
    seq: int
    ours: str
    theirs: str
    ours_kind: str
    theirs_kind: str

    def describe(self) -> str:
        return (f"session {self.session} seq {self.seq}: local {self.ours_kind} "
                f"{self.ours[:12]} vs remote {self.theirs_kind} {self.theirs[:12]}")

    def as_dict(self) -> dict[str, object]:
        return {"session": self.session, "seq": self.seq, "ours": self.ours,
                "theirs": self.theirs, "ours_kind": self.ours_kind,
                "theirs_kind": self.theirs_kind}


def find_seq_conflicts(unions: Iterable[NoteUnion]) -> list[SeqConflict]:
    """Every (session, seq) that names different events on the two sides, sorted."""
    conflicts: dict[tuple[str, int], SeqConflict] = {}
    for union in unions:
        ours = _by_seq(scan_notes([(union.subject, union.ours)]).entries)
        for key, theirs in _by_seq(scan_notes([(union.subject, union.theirs)]).entries).items():
            mine = ours.get(key)
            if mine is not None and mine.id != theirs.id:
                conflicts[key] = SeqConflict(key[0], key[1], mine.id, theirs.id, mine.kind,
                                             theirs.kind)
    return [conflicts[key] for key in sorted(conflicts)]


def _by_seq(entries: Iterable[LedgerEntry]) -> dict[tuple[str, int], LedgerEntry]:
    return {(entry.session, entry.seq): entry for entry in entries
            if entry.session is not None and entry.seq is not None}
