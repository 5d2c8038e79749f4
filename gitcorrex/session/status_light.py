"""`session status` as a read path: the fold's result as plain data, computed once per
version of the session's note.

What is deferred, and why. A status query is asked between every two steps of a session
(and by operators polling it); today it paid ~0.4 s on 5,000 events, most of it imports:
click, pydantic with every event model, pygit2. This module imports none of them:
- the session's note is found and read with the git binary (`ledger_blobs.py`: two
  processes, ~10 ms, against ~70 ms to import pygit2);
- the fold depends on nothing but the note's blobs, so its result (the JSON `replay
  --session` prints as `state`) is stored keyed by those blob ids (`git/fold_store.py`)
  and reused until an event is appended to the session. Only a new note version loads the
  fold and its models (`_fold_now`), exactly the code `replay` runs;
- the workspace's state key is measured on a thread meanwhile (git works while we read).
Anything unusual (no note, an unreadable ref, a session that does not exist) returns None,
and the caller takes the full path, which reports it with the usual errors.
"""

from __future__ import annotations

from pathlib import Path

from gitcorrex.git.background import in_background
from gitcorrex.git.config import config_values
from gitcorrex.git.fold_store import load_fold, store_fold
from gitcorrex.git.repository import Repository
from gitcorrex.git.state import compute_state
from gitcorrex.ledger_blobs import note_blobs, read_notes
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.session_object import is_session_id, session_object_oid

TYPE_CHECKING = False  # no `typing` at run time on the stored-status path (3 ms)
if TYPE_CHECKING:
    from typing import Any


def status_document(repo: Repository, given: str | None) -> dict[str, Any] | None:
    """`{"state": …, "workspace": {"state_key", "baseline_valid"}}` for the session `given`
    (else the workspace's configured one); None to let the full path answer."""
    measuring = in_background(lambda: compute_state(repo).state_key, name="correx-state")
    try:
        state = _folded_state(repo, given)
    finally:
        key = measuring()  # never leave the measurement (and its index lock) behind
    if state is None:
        return None
    baseline = state.get("baseline")
    valid = baseline is not None and baseline.get("state_key") == key
    return {"state": state, "workspace": {"state_key": key, "baseline_valid": valid}}


def folded_state(repo: Repository, session: str) -> dict[str, Any] | None:
    """The session's folded state as `replay --session` prints it; None when the ledger
    holds no such session (or its ref cannot be read: the full path says why)."""
    return _folded_state(repo, session)


def _folded_state(repo: Repository, given: str | None) -> dict[str, Any] | None:
    config = config_values(repo, ("correx.ref", "correx.session"))
    session = given or config.get("correx.session")
    if not session or not is_session_id(session):
        return None
    subject = session_object_oid(session)
    blobs = note_blobs(_where(repo), config.get("correx.ref"), subject)
    if not blobs:
        return None
    state = load_fold(repo.common_dir, subject, blobs)
    if state is None:
        state = _fold_now(repo, session, blobs)
        if state is not None:
            store_fold(repo.common_dir, subject, blobs, state)
    return state if isinstance(state, dict) else None


def _fold_now(repo: Repository, session: str, blobs: list[str]) -> dict[str, Any] | None:
    """The fold `replay --session` runs, on the note's lines; None for no such session."""
    from gitcorrex.model.note_lines import scan_notes
    from gitcorrex.replay.session_entries import fold_entries

    subject = session_object_oid(session)
    scanned = scan_notes(read_notes(_where(repo), {subject: blobs}).items())
    state = fold_entries(session, scanned.entries, scanned.problems)
    if not state.exists:
        return None
    dumped: dict[str, Any] = state.model_dump(mode="json")
    return dumped


def _where(repo: Repository) -> Path:
    """Where git runs: the work tree (its own config counts), else the git dir."""
    return repo.work_tree or repo.git_dir


def status_conclusion(document: dict[str, Any]) -> Conclusion:
    """Failed when the session is invalid (a malformed event: nothing may advance)."""
    return Conclusion.CHECK_FAILED if document["state"]["status"] == "invalid" else Conclusion.OK
