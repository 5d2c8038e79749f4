"""What one observation of the active step records: verified, or failed (and escalated).

Decided inside the compare-and-swap against the session as it is then: if the step is no
longer active (another process settled it), nothing more is recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gitcorrex import ledger
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.plan import PlanStep
from gitcorrex.model.routes import Route
from gitcorrex.model.session_events import (
    SESSION_COMPLETED_KIND,
    SESSION_PAUSED_KIND,
    STEP_FAILED_KIND,
    STEP_VERIFIED_KIND,
    Escalation,
    PauseCause,
    SessionCompletedFields,
    SessionPausedFields,
    StepFailedFields,
    StepVerifiedFields,
)
from gitcorrex.model.session_state import SessionState, SessionStatus, StepStatus
from gitcorrex.model.verification import Result

if TYPE_CHECKING:
    from gitcorrex.session.verify_step import ActiveStep
    from gitcorrex.verify.outcome import VerifyOutcome

def settle_drafts(state: SessionState, active: ActiveStep,
                  outcome: VerifyOutcome) -> list[ledger.EventDraft]:
    """step_verified (+ session_completed), or step_failed (+ the controller_limit pause)."""
    step = active.step
    if state.active_step != step.id or state.status is not SessionStatus.ACTIVE:
        return []
    assert outcome.event is not None
    current = state.step(step.id)
    attempts = (current.attempts if current else 0) + 1
    if outcome.result is Result.PASS:
        verified = StepVerifiedFields(observation=outcome.event.id,
                                      build_claim=True, attempts=attempts)
        return [step_draft(active.session, step, STEP_VERIFIED_KIND, outcome.state_key,
                       verified.model_dump()),
                *completion_drafts(state, active.session, step, outcome.state_key)]
    escalate = attempts >= active.max_attempts
    failed = StepFailedFields(
        observation=outcome.event.id,
        result=outcome.result.value if outcome.result else "unavailable",
        reason=_reason(outcome), feedback=_feedback(outcome), output_blob=_blob(outcome),
        attempts=attempts, max_attempts=active.max_attempts,
        route=Route.STOP_ESCALATE if escalate else active.route)
    drafts = [step_draft(active.session, step, STEP_FAILED_KIND, outcome.state_key,
                     failed.model_dump(mode="json"))]
    if escalate:
        pause = SessionPausedFields(
            cause=PauseCause.CONTROLLER_LIMIT,
            reason=f"step {step.id} did not verify in {attempts} attempts (max_attempts "
                   f"{active.max_attempts}): escalated by the no-progress arbiter",
            escalation=Escalation(step=step.id, attempts=attempts,
                                  max_attempts=active.max_attempts,
                                  last_failure=outcome.event.id))
        drafts.append(step_draft(active.session, step, SESSION_PAUSED_KIND, outcome.state_key,
                             pause.model_dump(mode="json", exclude_none=True)))
    return drafts


def completion_drafts(state: SessionState, session: str, step: PlanStep,
                      state_key: str) -> list[ledger.EventDraft]:
    """`session_completed` when the step being verified was the last one not verified."""
    others = [s for s in state.steps if s.id != step.id]
    if any(s.status is not StepStatus.VERIFIED for s in others):
        return []
    done = SessionCompletedFields(plan=str(state.plan), steps=[s.id for s in state.steps],
                                  baseline=state_key)
    return [step_draft(session, step, SESSION_COMPLETED_KIND, state_key, done.model_dump())]


def step_draft(session: str, step: PlanStep, kind: str, state_key: str,
               fields: dict[str, object]) -> ledger.EventDraft:
    """A session event about `step` on `state_key`."""
    return ledger.EventDraft(kind=kind, subjects=(), session=session, stage=step.stage,
                             step=step.id, state_key=state_key, fields=fields)



def _feedback(outcome: VerifyOutcome) -> str:
    """The failing command's output, verbatim up to the bound (its end holds the error)."""
    if outcome.failing_output:
        return bound_text(outcome.failing_output.decode("utf-8", "replace"))
    return bound_text(outcome.summary)


def _reason(outcome: VerifyOutcome) -> str | None:
    reason = outcome.event.field("reason") if outcome.event else None
    return reason if isinstance(reason, str) else None


def _blob(outcome: VerifyOutcome) -> str | None:
    """The full output blob of the command that stopped the run (the last one that ran)."""
    commands = outcome.event.field("commands") if outcome.event else None
    listed = commands if isinstance(commands, list) else []
    ran = [c for c in listed if isinstance(c, dict) and c.get("stop_reason") != "skipped"]
    output = ran[-1].get("output") if ran else None
    blob = output.get("blob") if isinstance(output, dict) else None
    return blob if isinstance(blob, str) else None
