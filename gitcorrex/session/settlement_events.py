"""What one settlement of the active step records: verified, or failed (and escalated).

Decided inside the compare-and-swap against the session as it is then: if the step is no
longer active (another process settled it), nothing more is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gitcorrex import ledger
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.plan import PlanStep
from gitcorrex.model.record import EventPayload
from gitcorrex.model.routes import Route
from gitcorrex.model.session_events import (
    Escalation,
    PauseCause,
    SessionCompletedFields,
    SessionPausedFields,
    StepFailedFields,
    StepVerifiedFields,
)
from gitcorrex.model.session_state import SessionState, SessionStatus, StepStatus

if TYPE_CHECKING:
    from gitcorrex.session.settled_step import ActiveStep

@dataclass(frozen=True)
class Settled:
    """How the settlement judged the step: `failure` None means every part passed.

    `observation` is the passing observation (None for a failure); `gates` the gate events
    the step passed on; `build_claim` False when the observation is the step's own checks
    alone (a docs or no-writes step).
    """

    state_key: str
    observation: str | None
    gates: list[str]
    failure: Failure | None = None
    build_claim: bool = True


@dataclass(frozen=True)
class Failure:
    """The failing part: its recorded event, its verdict and its output verbatim."""

    event: str
    part: str
    result: str
    reason: str | None
    feedback: str
    output_blob: str | None
    rule: str | None = None
    paths: list[str] | None = None


def settle_drafts(state: SessionState, active: ActiveStep,
                  settled: Settled) -> list[ledger.EventDraft]:
    """step_verified (+ session_completed), or step_failed (+ the controller_limit pause)."""
    step = active.step
    if state.active_step != step.id or state.status is not SessionStatus.ACTIVE:
        return []
    current = state.step(step.id)
    attempts = (current.attempts if current else 0) + 1
    failure, key = settled.failure, settled.state_key
    if failure is None:
        verified = StepVerifiedFields(observation=settled.observation,
                                      build_claim=settled.build_claim,
                                      attempts=attempts, gates=settled.gates or None)
        return [step_draft(active.session, step, key, verified),
                *completion_drafts(state, active.session, step, key)]
    escalate = attempts >= active.max_attempts
    failed = StepFailedFields(
        observation=failure.event, result=failure.result, reason=failure.reason,
        feedback=bound_text(failure.feedback), output_blob=failure.output_blob,
        attempts=attempts, max_attempts=active.max_attempts,
        route=Route.STOP_ESCALATE if escalate else active.route, part=failure.part,
        rule=failure.rule, paths=failure.paths)
    drafts = [step_draft(active.session, step, key, failed)]
    if escalate:
        pause = SessionPausedFields(
            cause=PauseCause.CONTROLLER_LIMIT,
            reason=f"step {step.id} did not verify in {attempts} attempts (max_attempts "
                   f"{active.max_attempts}): escalated by the no-progress arbiter",
            escalation=Escalation(step=step.id, attempts=attempts,
                                  max_attempts=active.max_attempts,
                                  last_failure=failure.event))
        drafts.append(step_draft(active.session, step, key, pause))
    return drafts


def completion_drafts(state: SessionState, session: str, step: PlanStep,
                      state_key: str) -> list[ledger.EventDraft]:
    """`session_completed` when the step being verified was the last one not verified."""
    others = [s for s in state.steps if s.id != step.id]
    if any(s.status is not StepStatus.VERIFIED for s in others):
        return []
    done = SessionCompletedFields(plan=str(state.plan), steps=[s.id for s in state.steps],
                                  baseline=state_key)
    return [step_draft(session, step, state_key, done)]


def step_draft(session: str, step: PlanStep, state_key: str,
               fields: EventPayload) -> ledger.EventDraft:
    """A session event about `step` on `state_key`."""
    return ledger.EventDraft(fields, subjects=(), session=session, stage=step.stage,
                             step=step.id, state_key=state_key)
