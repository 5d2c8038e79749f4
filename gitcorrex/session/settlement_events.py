"""What one settlement of the active step records: verified, awaiting review (a guarded
plan's step), or failed (and escalated).

Decided inside the compare-and-swap against the session as it is then: if the step is no
longer active (another process settled it), or already awaits review, nothing more is
recorded. A review's decision (session/review.py) records through the same drafts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gitcorrex import ledger
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.plan import Plan, PlanStep, Risk
from gitcorrex.model.record import EventPayload
from gitcorrex.model.routes import Route
from gitcorrex.model.session_events import (
    Escalation,
    PauseCause,
    SessionCompletedFields,
    SessionPausedFields,
    StepAwaitingReviewFields,
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
    """step_verified (+ session_completed) — or, for a guarded plan, step_awaiting_review —
    or step_failed (+ the controller_limit pause)."""
    step = active.step
    if state.active_step != step.id or state.status is not SessionStatus.ACTIVE:
        return []
    current = state.step(step.id)
    if current is not None and current.status is StepStatus.AWAITING_REVIEW:
        return []  # settled already: only a review decides it now
    attempts = (current.attempts if current else 0) + 1
    failure, key = settled.failure, settled.state_key
    if failure is None:
        verified = StepVerifiedFields(observation=settled.observation,
                                      build_claim=settled.build_claim,
                                      attempts=attempts, gates=settled.gates or None)
        return passed_drafts(state, active, key, verified)
    return failed_drafts(active, key, failure, attempts)


def passed_drafts(state: SessionState, active: ActiveStep, state_key: str,
                  verified: StepVerifiedFields) -> list[ledger.EventDraft]:
    """Every part of the step passed: `verified` (+ session_completed), unless its plan is
    guarded — then `step_awaiting_review` with the same fields, and a review decides."""
    if needs_review(active.plan):
        waiting = StepAwaitingReviewFields(
            observation=verified.observation, build_claim=verified.build_claim,
            attempts=verified.attempts, max_attempts=active.max_attempts,
            gates=verified.gates)
        return [step_draft(active.session, active.step, state_key, waiting)]
    return verified_drafts(state, active.session, active.step, state_key, verified)


def needs_review(plan: Plan) -> bool:
    """A guarded plan's steps end only on another identity's review (seed 003 INV-6); a
    low-risk plan's end on their checks (no mandatory review, acceptance 7)."""
    return plan.risk is Risk.GUARDED


def verified_drafts(state: SessionState, session: str, step: PlanStep, state_key: str,
                    verified: StepVerifiedFields) -> list[ledger.EventDraft]:
    """`step_verified`, and `session_completed` when it was the last step not verified."""
    return [step_draft(session, step, state_key, verified),
            *completion_drafts(state, session, step, state_key)]


def failed_drafts(active: ActiveStep, state_key: str, failure: Failure,
                  attempts: int) -> list[ledger.EventDraft]:
    """`step_failed` for attempt `attempts`, and the controller_limit pause at the budget."""
    step = active.step
    escalate = attempts >= active.max_attempts
    failed = StepFailedFields(
        observation=failure.event, result=failure.result, reason=failure.reason,
        feedback=bound_text(failure.feedback), output_blob=failure.output_blob,
        attempts=attempts, max_attempts=active.max_attempts,
        route=Route.STOP_ESCALATE if escalate else active.route, part=failure.part,
        rule=failure.rule, paths=failure.paths)
    drafts = [step_draft(active.session, step, state_key, failed)]
    if escalate:
        pause = SessionPausedFields(
            cause=PauseCause.CONTROLLER_LIMIT,
            reason=f"step {step.id} did not verify in {attempts} attempts (max_attempts "
                   f"{active.max_attempts}): escalated by the no-progress arbiter",
            escalation=Escalation(step=step.id, attempts=attempts,
                                  max_attempts=active.max_attempts,
                                  last_failure=failure.event))
        drafts.append(step_draft(active.session, step, state_key, pause))
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
