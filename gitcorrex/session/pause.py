"""`git correx pause` (operator kinds) and `git correx resume`, each a compare-and-swap.

An operator may pause for `administrative` reasons or record an `orchestration_settlement`;
`semantic_terminal` pauses are admitted only on a confirmed claim (claims.py) and
`controller_limit` ones only by the no-progress arbiter. Resuming follows the cause:
administrative, settlement and unattributed (pre-provenance) pauses resume; a controller
limit resumes only with a raised budget, recorded as such (a re-plan never lifts it); a
semantic terminal pause needs a re-plan (`plan lock NEW --session ID --replaces OLD`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.errors import UsageError
from gitcorrex.git import Repository
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.session_events import (
    PauseCause,
    SessionPausedFields,
    SessionResumedFields,
    Transition,
)
from gitcorrex.model.session_state import Pause, SessionState, SessionStatus
from gitcorrex.replay.session import UNATTRIBUTED
from gitcorrex.session.state import existing_state
from gitcorrex.session.transition import refuse, run_transition

OPERATOR_CAUSES = (PauseCause.ADMINISTRATIVE, PauseCause.ORCHESTRATION_SETTLEMENT)
FREE_TO_RESUME = {PauseCause.ADMINISTRATIVE.value, PauseCause.ORCHESTRATION_SETTLEMENT.value,
                  UNATTRIBUTED}


def pause_session(repo: Repository, session: str, *, cause: PauseCause, reason: str,
                  expect_revision: int | None, now: datetime,
                  provenance: Provenance) -> list[RecordedEvent]:
    """Record an operator pause; only the operator kinds are accepted here (exit 2)."""
    if cause not in OPERATOR_CAUSES:
        raise UsageError(f"a {cause.value} pause is not an operator's to record",
                         hint="use --kind administrative, or --claim CLAIM.json for a "
                              "semantic terminal pause")
    fields = SessionPausedFields(cause=cause, reason=reason)
    read = existing_state(repo, session)

    def admit(state: SessionState, view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        refuse_if_not_running(state)
        return [pause_draft(state, fields)]

    return run_transition(repo, session, transition=Transition.PAUSE,
                          expected=_expected(read, expect_revision), admit=admit, now=now,
                          provenance=provenance)


def resume_session(repo: Repository, session: str, *, reason: str, budget: int | None,
                   expect_revision: int | None, now: datetime,
                   provenance: Provenance) -> list[RecordedEvent]:
    """Resume by the pause's own rule; TransitionRefusedError (exit 1) names what it needs."""
    read = existing_state(repo, session)

    def admit(state: SessionState, view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        pause = state.pause
        if state.status is not SessionStatus.PAUSED or pause is None:
            raise refuse(f"session {session} is not paused ({state.status.value})",
                         hint="nothing to resume")
        _check_resumable(pause, budget)
        cause = None if pause.cause == UNATTRIBUTED else PauseCause(pause.cause)
        fields = SessionResumedFields(cause=cause, reason=reason, budget=budget)
        return [ledger.EventDraft(fields, subjects=(), session=session,
                                  step=state.active_step)]

    return run_transition(repo, session, transition=Transition.RESUME,
                          expected=_expected(read, expect_revision), admit=admit, now=now,
                          provenance=provenance)


def _check_resumable(pause: Pause, budget: int | None) -> None:
    if pause.cause in FREE_TO_RESUME:
        return
    if pause.cause == PauseCause.CONTROLLER_LIMIT.value:
        found = (pause.escalation or {}).get("max_attempts", 0)
        limit = found if isinstance(found, int) else 0
        if budget is not None and budget > limit:
            return
        raise refuse(f"the session stopped at its controller limit ({limit} attempts of step "
                     f"{(pause.escalation or {}).get('step')}); it does not resume as it is, "
                     "and a re-plan does not lift it",
                     hint=f"a person raises the budget: `git correx resume --budget "
                          f"{limit + 1} --reason ...`")
    if pause.cause == PauseCause.SEMANTIC_TERMINAL.value:
        raise refuse("a semantic terminal pause was admitted on a confirmed blocker; it does "
                     "not resume", hint="re-plan: git correx plan lock NEW --session ID "
                                        "--replaces OLD")
    raise refuse(f"the pause is {pause.cause}: it cannot be resumed",
                 hint="start a new session")


def refuse_if_not_running(state: SessionState) -> None:
    """A pause needs a session that runs: not paused already, not completed."""
    if state.status is SessionStatus.PAUSED and state.pause is not None:
        raise refuse(f"session {state.session} is already paused ({state.pause.cause})",
                     hint="resume it first")
    if state.status is SessionStatus.COMPLETED:
        raise refuse(f"session {state.session} is completed", hint="nothing to pause")


def pause_draft(state: SessionState, fields: SessionPausedFields) -> ledger.EventDraft:
    return ledger.EventDraft(fields, subjects=(), session=state.session,
                             step=state.active_step)


def _expected(read: SessionState, expect_revision: int | None) -> int:
    return read.revision if expect_revision is None else expect_revision
