"""After an append: the fold of every session note it wrote, stored for the next reader.

`session_state` (`session/state.py`) reads a session's state from the fold store
(`git/fold_store.py`), keyed by the blob ids of the session's note. A fold missing from it
costs the reader pydantic, the event models and a scan and fold of the whole note (~0.4 s
at 5,000 events), and before this every append left it missing. So the writer stores the
new note's fold, exactly what the reader would compute, and beside it the fold's working
state (`fold_entries_kept`): the next append to the session takes its `seq` from that record
and folds only the lines it appended (`continue_entries`), so an append to a 5,000-event
session neither scans nor folds the 5,000. Where the record cannot be continued (none kept,
a seq-less line, a doubtful appended line) the writer folds the whole note, as a reader
would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gitcorrex import git
from gitcorrex.git import Repository, store_fold
from gitcorrex.ledger.view import LedgerView, kept_fold_name
from gitcorrex.model.note_lines import NoteScan
from gitcorrex.model.session_object import session_object_oid
from gitcorrex.model.session_state import SessionState
from gitcorrex.replay.session_entries import continue_entries, fold_entries_kept


def store_session_folds(repo: Repository, view: LedgerView, tip: str,
                        appends: Mapping[str, bytes], sessions: Iterable[str]) -> None:
    """Fold and store each of `sessions` whose note this append (now at `tip`) extended,
    from what `view` (the ledger the append extended) read of it."""
    for session in sessions:
        subject = session_object_oid(session)
        appended = appends.get(subject, b"")
        folded = _continued(view, session, appended) or _folded(view, session, tip, appended)
        if folded is None or not folded[0].exists:
            continue
        blobs = git.note_blob_ids(repo, tip, subject)
        store_fold(repo.common_dir, subject, blobs, folded[0].as_json())
        store_fold(repo.common_dir, kept_fold_name(subject), blobs, folded[1])


def _continued(view: LedgerView, session: str,
               appended: bytes) -> tuple[SessionState, dict[str, Any]] | None:
    """The kept fold of the old note continued over the appended lines; None when there is
    none or it cannot be continued."""
    kept = view.kept_fold(session)
    if kept is None:
        return None
    scan = NoteScan()
    scan.add(session_object_oid(session), appended)
    new = scan.result()
    if new.problems:
        return None
    return continue_entries(session, kept, new.entries)


def _folded(view: LedgerView, session: str, tip: str,
            appended: bytes) -> tuple[SessionState, dict[str, Any]] | None:
    """The whole new note folded: the old note's scan continued over the appended lines
    when the view scanned it, else the note read at `tip`."""
    subject = session_object_oid(session)
    scanned = view.scanned_after(subject, appended)
    if scanned is None:
        scanned = LedgerView(view.repo, tip).scanned_on(subject)
    return fold_entries_kept(session, scanned.entries, scanned.problems)
