"""After an append: the fold of every session note it wrote, stored for the next reader.

`session_state` (`session/state.py`) reads a session's state from the fold store
(`git/fold_store.py`), keyed by the blob ids of the session's note. A fold missing from it
costs the reader pydantic, the event models and a scan and fold of the whole note (~0.4 s
at 5,000 events), and before this every append left it missing. The writer has scanned the
old note already (for the next `seq`): it scans only the lines it appended, folds, and
stores the result under the new note's blob ids, exactly what the reader would compute.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from gitcorrex import git
from gitcorrex.git import Repository, store_fold
from gitcorrex.model.note_lines import ScannedNotes
from gitcorrex.model.session_object import session_object_oid
from gitcorrex.replay.session_entries import fold_entries


def store_session_folds(repo: Repository,
                        scanned_after: Callable[[str, bytes], ScannedNotes | None], tip: str,
                        appends: Mapping[str, bytes], sessions: Iterable[str]) -> None:
    """Fold and store each of `sessions` whose note this append (now at `tip`) extended;
    `scanned_after(subject, appended)` is the old note's scan continued over `appended`."""
    for session in sessions:
        subject = session_object_oid(session)
        scanned = scanned_after(subject, appends.get(subject, b""))
        if scanned is None:
            continue
        state = fold_entries(session, scanned.entries, scanned.problems)
        if state.exists:
            blobs = git.note_blob_ids(repo, tip, subject)
            store_fold(repo.common_dir, subject, blobs, state.as_json())
