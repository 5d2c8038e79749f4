"""The ledger at one tip, read as a compare-and-swap attempt needs it: the notes it asks
for, each scanned once, so a precondition (and a session's next `seq`) is decided on the
ledger the append will extend, never on a stale read.

Constructing one reads nothing and imports no model: a writer that asks it nothing (a plain
`verify`) pays neither pydantic nor a read of a note.
"""

from __future__ import annotations

from gitcorrex import git
from gitcorrex.git import Repository
from gitcorrex.model.event_order import session_order
from gitcorrex.model.session_object import session_object_oid

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from gitcorrex.ledger.decisions import UncountedDecision
    from gitcorrex.model.events import RecordedEvent
    from gitcorrex.model.note_lines import LedgerEntry, NoteScan, ScannedNotes


class LedgerView:
    """The ledger at `tip` (None: nothing recorded yet); notes are read on first use."""

    def __init__(self, repo: Repository, tip: str | None) -> None:
        self._repo = repo
        self.tip = tip
        self._cache: dict[str, ScannedNotes] = {}
        self._kept: dict[str, dict[str, Any] | None] = {}
        self._scans: dict[str, tuple[NoteScan, int]] = {}
        self._uncounted: dict[str, dict[str, UncountedDecision]] = {}

    @classmethod
    def at_tip(cls, repo: Repository) -> LedgerView:
        """The ledger as it is now (its tip read once; None before the first append)."""
        return cls(repo, git.ledger_tip(repo, git.ledger_ref(repo)))

    def session_events(self, session: str) -> list[RecordedEvent]:
        """The session's events in session order; [] for a session never recorded."""
        return [entry.event() for entry in self.session_entries(session)]

    @property
    def repo(self) -> Repository:
        return self._repo

    def last_seq(self, session: str) -> int:
        """The session's highest seq so far (its revision); 0 before its first event. Taken
        from the fold the last writer kept for this very note when there is one (the note
        is then not read at all), else from a scan of the note."""
        kept = self.kept_fold(session)
        if kept is not None:
            return int(kept["last_seq"])
        return max((entry.seq or 0 for entry in self.session_entries(session)), default=0)

    def kept_fold(self, session: str) -> dict[str, Any] | None:
        """The fold's working state kept for the session's note as it is at this tip
        (`ledger/session_folds.py`), when this view has not scanned that note; else None."""
        subject = session_object_oid(session)
        if subject in self._cache or self.tip is None:
            return None
        if subject not in self._kept:
            blobs = git.note_blob_ids(self._repo, self.tip, subject)
            found = git.load_fold(self._repo.common_dir, kept_fold_name(subject),
                                  blobs) if blobs else None
            fits = isinstance(found, dict) and type(found.get("last_seq")) is int
            self._kept[subject] = found if fits else None
        return self._kept[subject]

    def session_entries(self, session: str) -> list[LedgerEntry]:
        """The session's entries in session order (kind fields unparsed); [] when none."""
        found = self.scanned_on(session_object_oid(session)).entries
        mine = [entry for entry in found if entry.session == session]
        return sorted(mine, key=session_order)

    def scanned_after(self, subject: str, appended: bytes) -> ScannedNotes | None:
        """What a scan of `subject`'s note gives once `appended` is added to it (call it
        once, after the append); None when this view never read that note."""
        if subject not in self._scans:
            return None
        scan, next_row = self._scans.pop(subject)
        scan.add(subject, appended, next_row)
        return scan.result()

    def scanned_on(self, subject: str) -> ScannedNotes:
        """The note on `subject` at this tip: its entries and its doubtful lines."""
        if subject not in self._cache:
            from gitcorrex.model.note_lines import NoteScan  # the envelope model

            note = git.read_note(self._repo, self.tip, subject)
            scan = NoteScan()
            self._scans[subject] = (scan, 1 if note is None else scan.add(subject, note))
            self._cache[subject] = scan.result()
        return self._cache[subject]

    @property
    def signed_decisions(self) -> bool:
        """`correx.requireSignedDecisions`: only signed operator decisions count."""
        return git.are_signed_decisions_required(self._repo)

    def uncounted_on(self, subject: str) -> dict[str, UncountedDecision]:
        """The operator decisions on `subject`'s note that do not count at this tip
        (ledger/decisions.py: {} unless `correx.requireSignedDecisions` is true)."""
        if subject not in self._uncounted:
            from gitcorrex.ledger.decisions import uncounted_decisions

            self._uncounted[subject] = uncounted_decisions(
                self._repo, self.tip, subject, self.scanned_on(subject).entries)
        return self._uncounted[subject]

    def counted_on(self, subject: str) -> list[LedgerEntry]:
        """`subject`'s entries without the decisions that do not count: what every reader
        of decisions (authorizations, audits, routes) reads."""
        from gitcorrex.ledger.decisions import counted

        return counted(self.scanned_on(subject).entries, self.uncounted_on(subject))


def kept_fold_name(subject: str) -> str:
    """The fold store's name for the working state kept beside `subject`'s fold."""
    return f"{subject}.kept"
