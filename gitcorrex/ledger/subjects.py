"""The ledger's events on many trees at once, read at one tip: what `log` and `report` need.

One read of the notes tree for every subject asked about; a tree without a note has no
events (unverified), which is never the same as a failed read (that raises).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gitcorrex import git
from gitcorrex.git import Repository
from gitcorrex.model.note_lines import LedgerEntry, Problem, scan_notes


@dataclass(frozen=True)
class SubjectEvents:
    """Ledger entries per subject (note order) at `tip`, and every doubtful line."""

    ref: str
    tip: str | None
    entries: dict[str, list[LedgerEntry]]
    problems: list[Problem]

    def on(self, subject: str) -> list[LedgerEntry]:
        """The subject's entries; [] when it has no note."""
        return self.entries.get(subject, [])


def read_subjects(
    repo: Repository, subjects: Iterable[str], *, at: SubjectEvents | None = None
) -> SubjectEvents:
    """Every subject's events in one pass, at the current tip or at the tip of `at`."""
    ref = git.ledger_ref(repo) if at is None else at.ref
    tip = git.ledger_tip(repo, ref) if at is None else at.tip
    found = git.read_notes_for(repo, tip, list(subjects))
    entries: dict[str, list[LedgerEntry]] = {}
    problems: list[Problem] = []
    for subject, data in found.items():
        scanned = scan_notes([(subject, data)])
        entries[subject] = scanned.entries
        problems.extend(scanned.problems)
    return SubjectEvents(ref, tip, entries, problems)
