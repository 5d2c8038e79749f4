"""Reading the ledger back: one subject's note, or every note, with every doubtful line
reported beside the good events (`model/note_lines.py` is the tolerant line reader)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from gitcorrex import git
from gitcorrex.git import Repository
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.note_lines import LedgerEntry, Problem, scan_notes


@dataclass(frozen=True)
class LedgerRead:
    """What a read found; `tip` is None when nothing was recorded yet.

    `entries` (envelope + stored line) is what ordering and printing need; `events`
    parses the kind fields too, on first use (~12 µs and 4 KB per event). `unfit`: the
    lines whose fields do not fit their kind, found only by a read that checks fields.
    """

    ref: str
    tip: str | None
    entries: list[LedgerEntry]
    problems: list[Problem]
    unfit: list[Problem] = field(default_factory=list)

    @cached_property
    def events(self) -> list[RecordedEvent]:
        """Every event in full, in the order of `entries`."""
        return [entry.event() for entry in self.entries]


def read_subject(repo: Repository, oid: str, *, check_fields: bool = False) -> LedgerRead:
    """The events attached to one object; no events when it has no note (unverified).
    `check_fields` also reads every payload to find the lines that do not fit (slow)."""
    ref = git.ledger_ref(repo)
    tip = git.ledger_tip(repo, ref)
    note = git.read_note(repo, tip, oid)
    scanned = scan_notes([] if note is None else [(oid, note)], check_fields=check_fields)
    return LedgerRead(ref, tip, scanned.entries, scanned.problems, scanned.unfit)


def read_all(repo: Repository, *, check_fields: bool = False) -> LedgerRead:
    """Every event in the ledger, each once, with every doubtful line as a problem;
    `check_fields` also reads every payload to find the lines that do not fit (slow)."""
    ref = git.ledger_ref(repo)
    tip = git.ledger_tip(repo, ref)
    scanned = scan_notes(git.iter_all_notes(repo, tip), check_fields=check_fields)
    return LedgerRead(ref, tip, scanned.entries, scanned.problems, scanned.unfit)


def ledger_tip(repo: Repository) -> str | None:
    """The ledger's current tip; None before the first append."""
    return git.ledger_tip(repo, git.ledger_ref(repo))
