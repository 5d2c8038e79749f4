"""The ledger's one door: facts appended and read back, in the project's words.

Everything that records or reads a fact comes through here; nothing beside `ledger/` reads
or writes notes (tests/test_architecture.py holds that). The face imports nothing itself
(PEP 562: a name is imported on first use), so a caller that writes plain values never
pays for the models it does not use, and whichever storage answers is `git/notes.py`'s
choice, never the caller's.

- writing: `append_lines` (plain drafts, the one writer; `prepare_append` makes its first
  attempt ahead of time), `append_events` (typed drafts)
- reading: `read_subject`, `read_all`, `read_notes` (many subjects' notes, their blob ids
  first, for readers that keep what they derive), `LedgerView` (one tip, inside an append)
"""

from __future__ import annotations

from gitcorrex.faces import face_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitcorrex.ledger.append import Draft as Draft
    from gitcorrex.ledger.append import append_lines as append_lines
    from gitcorrex.ledger.append import prepare_append as prepare_append
    from gitcorrex.ledger.blob_reads import NoteBlobs as NoteBlobs
    from gitcorrex.ledger.blob_reads import note_blobs as note_blobs
    from gitcorrex.ledger.drafts import EventDraft as EventDraft
    from gitcorrex.ledger.drafts import append_events as append_events
    from gitcorrex.ledger.read import LedgerRead as LedgerRead
    from gitcorrex.ledger.read import ledger_tip as ledger_tip
    from gitcorrex.ledger.read import read_all as read_all
    from gitcorrex.ledger.read import read_subject as read_subject
    from gitcorrex.ledger.view import LedgerView as LedgerView
    from gitcorrex.model.note_lines import LedgerEntry as LedgerEntry
    from gitcorrex.model.note_lines import Problem as Problem
    from gitcorrex.model.session_object import check_session_id as check_session_id

FACE = {
    "Draft": "gitcorrex.ledger.append",
    "append_lines": "gitcorrex.ledger.append",
    "prepare_append": "gitcorrex.ledger.append",
    "EventDraft": "gitcorrex.ledger.drafts",
    "append_events": "gitcorrex.ledger.drafts",
    "NoteBlobs": "gitcorrex.ledger.blob_reads",
    "note_blobs": "gitcorrex.ledger.blob_reads",
    "LedgerRead": "gitcorrex.ledger.read",
    "ledger_tip": "gitcorrex.ledger.read",
    "read_all": "gitcorrex.ledger.read",
    "read_subject": "gitcorrex.ledger.read",
    "LedgerView": "gitcorrex.ledger.view",
    "LedgerEntry": "gitcorrex.model.note_lines",
    "Problem": "gitcorrex.model.note_lines",
    "check_session_id": "gitcorrex.model.session_object",
}
__all__ = sorted(FACE)


def __getattr__(name: str) -> object:
    """The face's names, imported on first use (tests/ledger holds FACE and the typed
    imports above to one list)."""
    return face_name(__name__, FACE, globals(), name)
