"""After an append: the fold of every session note it wrote, stored for the next reader.

`session status`, the pre-commit hook and agent hooks read a session's state from the fold
store (`git/fold_store.py`), keyed by the blob ids of the session's note. A fold missing
from it costs the reader pydantic, the event models and a scan and fold of the whole note
(~0.4 s at 5,000 events), and before this every append left it missing. The writer has
scanned the old note already (for the next `seq`) and has the models loaded: it scans only
the lines it appended, folds, and stores the result under the new note's blob ids, exactly
what the reader would have computed and stored (`session/status_light.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gitcorrex.git import notes
from gitcorrex.git.fold_store import store_fold
from gitcorrex.git.repository import Repository
from gitcorrex.model.events import RecordedEvent, session_object_oid
from gitcorrex.model.note_lines import ScannedNotes
from gitcorrex.replay.session_entries import fold_entries


def store_session_folds(repo: Repository,
                        scanned_after: Callable[[str, bytes], ScannedNotes | None], tip: str,
                        appends: Mapping[str, bytes], events: Sequence[RecordedEvent]) -> None:
    """Fold and store each session whose note this append (now at `tip`) extended;
    `scanned_after(subject, appended)` is the old note's scan continued over `appended`."""
    sessions = {session_object_oid(e.session): e.session for e in events if e.session}
    for subject, session in sessions.items():
        scanned = scanned_after(subject, appends.get(subject, b""))
        if scanned is None:
            continue
        state = fold_entries(session, scanned.entries, scanned.problems)
        if state.exists:
            blobs = notes.note_blob_ids(repo, tip, subject)
            store_fold(repo.common_dir, subject, blobs, state.model_dump(mode="json"))
