"""One transition = one compare-and-swap append on the session revision.

The admission check runs inside the append loop against the ledger at that tip, so it is
never decided on a stale view; the revision it expects is the caller's `--expect-revision`
or, by default, the revision the caller read when it decided to act. If another transition
got there first, nothing is written and the caller learns the current revision (exit 3);
nothing pending survives a restart: the caller resubmits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.errors import RevisionConflictError, TransitionRefusedError
from gitcorrex.git import Repository
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.session_events import (
    Transition,
    TransitionAdmittedFields,
)
from gitcorrex.model.session_object import session_object_oid
from gitcorrex.model.session_state import SessionState, SessionStatus
from gitcorrex.session.state import state_at

Admission = Callable[[SessionState, ledger.LedgerView], Sequence[ledger.EventDraft]]


def run_transition(repo: Repository, session: str, *, transition: Transition,
                   expected: int | None, admit: Admission, now: datetime,
                   provenance: Provenance) -> list[RecordedEvent]:
    """Append `transition_admitted` plus what `admit` returns, if the session is still at
    revision `expected` (None: no revision check) and `admit` does not refuse; nothing at
    all when `admit` returns no drafts."""

    def drafts(view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        state = state_at(view, session)
        if expected is not None and state.revision != expected:
            raise RevisionConflictError(
                f"session {session} is at revision {state.revision}, not {expected}: another "
                "transition was recorded first; nothing was written",
                hint=f"read `git correx session status {session}` and resubmit "
                     f"(--expect-revision {state.revision})")
        refuse_unless_sound(state)
        try:
            chosen = admit(state, view)
        except TransitionRefusedError as refused:
            raise naming_uncounted(refused, view, session) from None
        if not chosen:  # the admission decided to record nothing
            return []
        admitted = TransitionAdmittedFields(
            transition=transition, from_revision=state.revision,
            baseline=state.baseline.state_key if state.baseline else None,
            checks=[f"revision={state.revision}", f"ledger_tip={view.tip}"])
        head = ledger.EventDraft(admitted, subjects=(), session=session,
                                 step=state.active_step)
        return [head, *chosen]

    return ledger.append_events(repo, drafts, now=now, provenance=provenance)


def refuse_unless_sound(state: SessionState) -> None:
    """No transition on a session that does not exist or whose ledger is malformed."""
    if not state.exists:
        raise TransitionRefusedError(f"no session {state.session!r} in the ledger",
                                     hint="start one with `git correx plan lock PLAN`")
    if state.status is SessionStatus.INVALID:
        problem = state.problems[0]
        raise TransitionRefusedError(
            f"session {state.session} is invalid: event {problem.event[:12]} "
            f"({problem.kind}, seq {problem.seq}) is malformed: {problem.reason}",
            hint="nothing may advance on a malformed ledger (fail closed); start a new session")


def naming_uncounted(refused: TransitionRefusedError, view: ledger.LedgerView,
                     session: str) -> TransitionRefusedError:
    """`refused`, naming the session's operator decisions that do not count (unsigned while
    signed decisions are required): often the reason it is paused or has no baseline."""
    uncounted = view.uncounted_on(session_object_oid(session))
    if not uncounted:
        return refused
    named = "; ".join(decision.describe() for decision in uncounted.values())
    return TransitionRefusedError(f"{refused.message} ({named})", hint=refused.hint)


def refuse(message: str, hint: str) -> TransitionRefusedError:
    """A refused admission check (exit 1)."""
    return TransitionRefusedError(message, hint=hint)
