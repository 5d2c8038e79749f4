"""The one question every caller asks about a session: its state, folded from the ledger as
it is now (`session status`, the hooks, agent calls, settlement, the API and MCP).

What is deferred, and why: a session's state depends on nothing but the blobs of its note,
so the fold is kept by those ids (`git/fold_store.py`; every append stores the fold of the
notes it extends, `ledger/session_folds.py`) and rebuilt only when the note changed. The
common answer is then one `git ls-tree` and a small JSON file: no pydantic, no event
models, no libgit2, which every agent tool call in a session would otherwise pay (~0.2 s).

With `correx.requireSignedDecisions` the state also depends on who signed the session's
operator decisions (resumes, clarifications, an unverified lock: ledger/decisions.py), and
the stored fold is never read: it is a file anyone who can write `.git/` can write (an
agent could store "resumed" where no signed decision resumed anything), so every state is
folded from the ledger, at the fold's full cost (~0.4 s at 5,000 events). Without signed
decisions the store is trusted as the ledger itself is: an agent that can write it can as
well append an unsigned line with `git notes`.
"""

from __future__ import annotations

from gitcorrex import git, ledger
from gitcorrex.errors import UsageError
from gitcorrex.git import Repository, are_signed_decisions_required, load_fold, store_fold
from gitcorrex.model.session_object import check_session_id, session_object_oid
from gitcorrex.model.session_state import SessionState

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from gitcorrex.ledger.decisions import UncountedDecision


def session_state(repo: Repository, session: str) -> SessionState:
    """The session's state at the ledger's tip; `exists` is False for a session the ledger
    does not hold. An id that cannot name a session is a UsageError (exit 2)."""
    check_session_id(session)
    subject = session_object_oid(session)
    note = ledger.note_blobs(repo, [subject])
    blobs = note.blobs.get(subject, [])
    if blobs and are_signed_decisions_required(repo):
        # the fold store is a cache anyone who can write .git/ can write: where decisions
        # must be signed, a state read from it would be a decision nobody signed
        text = note.read([subject]).get(subject, b"")
        return _fold(session, text, frozenset(_uncounted(repo, session, text)))
    stored = load_fold(repo.common_dir, subject, blobs) if blobs else None
    if isinstance(stored, dict):
        try:
            return SessionState.from_json(stored)
        except (KeyError, TypeError, ValueError):
            pass  # not a fold this version wrote: fold again
    state, kept = _fold_kept(session, note.read([subject]).get(subject, b""))
    if state.exists:  # the fold for readers, its working state for the next writer
        from gitcorrex.ledger.view import kept_fold_name

        store_fold(repo.common_dir, subject, blobs, state.as_json())
        store_fold(repo.common_dir, kept_fold_name(subject), blobs, kept)
    return state


def _fold(session: str, note: bytes, uncounted: frozenset[str] = frozenset()) -> SessionState:
    """The fold `replay --session` runs, on the note's lines (the models load only here);
    `uncounted`: decisions that do not count (none for replay)."""
    return _fold_kept(session, note, uncounted)[0]


def _fold_kept(session: str, note: bytes,
               uncounted: frozenset[str] = frozenset()) -> tuple[SessionState, dict[str, Any]]:
    """`_fold`, and the fold's working state a writer can continue (`fold_entries_kept`)."""
    from gitcorrex.model.note_lines import scan_notes
    from gitcorrex.replay.session_entries import fold_entries_kept

    scanned = scan_notes([(session_object_oid(session), note)] if note else [])
    return fold_entries_kept(session, scanned.entries, scanned.problems, uncounted)


def uncounted_in(repo: Repository, session: str) -> list[UncountedDecision]:
    """The session's operator decisions that do not count now ([] unless signed decisions
    are required), for the commands that report them (`session status`)."""
    if not are_signed_decisions_required(repo):
        return []
    subject = session_object_oid(session)
    note = ledger.note_blobs(repo, [subject]).read([subject]).get(subject, b"")
    return list(_uncounted(repo, session, note).values())


def _uncounted(repo: Repository, session: str, note: bytes) -> dict[str, UncountedDecision]:
    """The session's operator decisions that do not count at the ledger's tip."""
    from gitcorrex.ledger.decisions import uncounted_decisions
    from gitcorrex.model.note_lines import scan_notes

    subject = session_object_oid(session)
    entries = scan_notes([(subject, note)]).entries
    tip = git.ledger_tip(repo, git.ledger_ref(repo))
    return uncounted_decisions(repo, tip, subject, entries)


def existing_state(repo: Repository, session: str) -> SessionState:
    """The state of a session that must exist; exit 2 naming the id otherwise."""
    state = session_state(repo, session)
    if not state.exists:
        raise UsageError(f"no session {session!r} in the ledger",
                         hint="list sessions with `git correx session list`")
    return state


def state_at(view: ledger.LedgerView, session: str) -> SessionState:
    """The session's state at one ledger tip (inside a compare-and-swap attempt, where the
    state must be the one the append extends, never a stored one)."""
    from gitcorrex.replay.session_entries import fold_entries

    subject = session_object_oid(session)
    scanned = view.scanned_on(subject)
    return fold_entries(session, scanned.entries, scanned.problems,
                        frozenset(view.uncounted_on(subject)))
