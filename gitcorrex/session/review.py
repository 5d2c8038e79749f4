"""`git correx step review STEP --approve|--reject --reason TEXT`: the strict review of a
guarded plan's step (seed 003 INV-6, acceptance 8).

A guarded plan's step that passes its whole settlement records `step_awaiting_review`
instead of `step_verified` (settlement_events.passed_drafts) and stays the active step:
nothing else starts, `verify` refuses to settle it again, and its writes stay the manifest.
Only a review decides it, and only by a git identity that is none of the step's workers —
the identities that started it (every attempt) and settled it — compared as plan audits
compare them (plan/risk_audit.Identity: a matching email or a matching name is the same
person). A reviewer running under the runtime name a worker ran under (`CORREX_RUNTIME`)
is refused too: a named runtime never reviews its own work.

Approve records `step_reviewed` and the `step_verified` the settlement deferred (its
observation, gates and attempt, on the state key it settled), plus `session_completed`
for the last step. Reject records `step_reviewed` and a `step_failed` (part `review`, the
reviewer's reason as feedback), exactly as a failed check does: the attempt counts, the
agent fixes and verifies again within the budget, and at the budget the no-progress
arbiter escalates. One compare-and-swap transition on the session revision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.errors import UsageError
from gitcorrex.git import Repository
from gitcorrex.model.events import Provenance, RecordedEvent, session_object_oid
from gitcorrex.model.note_lines import LedgerEntry, LineActor, typed_events
from gitcorrex.model.plan_events import Decision
from gitcorrex.model.session_claims import MAX_TEXT
from gitcorrex.model.session_events import (
    ReviewDecision,
    StepAwaitingReviewFields,
    StepReviewedFields,
    StepStartedFields,
    StepVerifiedFields,
    Transition,
)
from gitcorrex.model.session_state import SessionState, SessionStatus, StepStatus
from gitcorrex.plan.risk_audit import Identity
from gitcorrex.session.failure_route import route_after_step_failure
from gitcorrex.session.plan_source import session_step
from gitcorrex.session.settled_step import ActiveStep
from gitcorrex.session.settlement_events import (
    Failure,
    failed_drafts,
    step_draft,
    verified_drafts,
)
from gitcorrex.session.state import existing_state
from gitcorrex.session.transition import refuse, run_transition


@dataclass(frozen=True)
class ReviewOutcome:
    """The decision recorded: the step, who decided, and the events of the transition."""

    session: str
    step: str
    decision: ReviewDecision
    reviewer: Identity
    events: list[RecordedEvent]


@dataclass(frozen=True)
class _Settled:
    """The step's settlement awaiting review, and everyone who worked on the step."""

    entry: LedgerEntry
    fields: StepAwaitingReviewFields
    workers: list[tuple[Identity, str | None]]  # (git identity, runtime name)


def review_step(repo: Repository, session: str, step_id: str, *, decision: ReviewDecision,
                reason: str, expect_revision: int | None, now: datetime,
                provenance: Provenance) -> ReviewOutcome:
    """Record the review of `step_id`; TransitionRefusedError (exit 1) says why not."""
    reviewer = Identity(provenance.name, provenance.email)
    if not reason.strip() or len(reason) > MAX_TEXT:
        raise UsageError("--reason must say why, in at most 1,024 characters",
                         hint="the reason is the record a later reader (and, on a "
                              "rejection, the agent) reads")
    read = existing_state(repo, session)
    plan, step = session_step(repo, read, step_id)

    def admit(state: SessionState, view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        _refuse_unless_awaiting(state, step_id)
        settled = _settlement(view, session, step_id)
        _refuse_worker(reviewer, provenance.runtime_name, settled, step_id)
        reviewed = StepReviewedFields(decision=decision, reason=reason,
                                      settlement=settled.entry.id, name=reviewer.name,
                                      email=reviewer.email)
        key = str(settled.entry.state_key)
        head = step_draft(session, step, key, reviewed)
        active = ActiveStep(session, plan, step, settled.fields.max_attempts,
                            route_after_step_failure(Decision.ACCEPTED))
        return [head, *_decided(state, active, settled, decision, reviewer, reason)]

    expected = read.revision if expect_revision is None else expect_revision
    events = run_transition(repo, session, transition=Transition.REVIEW, expected=expected,
                            admit=admit, now=now, provenance=provenance)
    return ReviewOutcome(session, step_id, decision, reviewer, events)


def refuse_while_awaiting_review(state: SessionState) -> None:
    """The active step awaits review: nothing settles it again, no other step starts (exit 1)."""
    step = state.step(state.active_step) if state.active_step is not None else None
    if step is not None and step.status is StepStatus.AWAITING_REVIEW:
        raise refuse(f"step {step.id} of session {state.session} passed its settlement and "
                     "awaits review: its plan is guarded, so it is verified only when "
                     "another identity approves it",
                     hint=f"a reviewer runs `git correx step review {step.id} --approve|"
                          "--reject --reason TEXT`; a rejection sends it back with feedback")


def _refuse_unless_awaiting(state: SessionState, step_id: str) -> None:
    if state.status is not SessionStatus.ACTIVE:
        raise refuse(f"session {state.session} is {state.status.value}: nothing is reviewed "
                     "on it", hint="read `git correx session status`; resume a paused session "
                                   "first")
    current = state.step(step_id)
    if current is None or current.status is not StepStatus.AWAITING_REVIEW:
        shown = current.status.value if current else "unknown"
        raise refuse(f"step {step_id} is {shown}, not awaiting review: only a guarded plan's "
                     "step that passed its settlement awaits a review",
                     hint="read `git correx session status`")


def _settlement(view: ledger.LedgerView, session: str, step_id: str) -> _Settled:
    """The step's latest `step_awaiting_review` and the identities of its starts and
    settlements (every attempt): the workers a review must come from outside of."""
    entries = [e for e in view.scanned_on(session_object_oid(session)).entries
               if e.session == session and e.step == step_id]
    typed = typed_events(entries, (StepStartedFields, StepAwaitingReviewFields))
    workers, latest = [], None
    for entry, payload, _ in typed:
        if payload is None:
            continue
        actor = LineActor.model_validate_json(entry.line).actor
        workers.append((Identity(actor.name, actor.email), actor.runtime_name))
        if isinstance(payload, StepAwaitingReviewFields) and \
                (latest is None or (entry.seq or 0) > (latest[0].seq or 0)):
            latest = (entry, payload)
    if latest is None or latest[0].state_key is None:
        raise refuse(f"step {step_id} of session {session} has no recorded settlement to "
                     "review", hint="read `git correx session status`")
    return _Settled(latest[0], latest[1], workers)


def _refuse_worker(reviewer: Identity, runtime_name: str | None, settled: _Settled,
                   step_id: str) -> None:
    """A worker of the step, by git identity or by runtime name, never reviews it."""
    for worker, worker_runtime in settled.workers:
        if reviewer.same_as(worker):
            raise refuse(f"{reviewer} may not review step {step_id}: {worker} started or "
                         "settled it, and a guarded step's review must come from another "
                         "identity (same email or same name counts as the same person)",
                         hint="ask a reviewer who did not work on the step to run "
                              f"`git correx step review {step_id}`")
        if runtime_name is not None and runtime_name == worker_runtime:
            raise refuse(f"the runtime {runtime_name!r} worked on step {step_id}: a runtime "
                         "never reviews its own step, whatever git identity it uses",
                         hint="review from outside the agent's runtime (CORREX_RUNTIME)")


def _decided(state: SessionState, active: ActiveStep, settled: _Settled,
             decision: ReviewDecision, reviewer: Identity,
             reason: str) -> list[ledger.EventDraft]:
    """Approve: the deferred `step_verified`. Reject: a `step_failed` for the attempt."""
    fields, key = settled.fields, str(settled.entry.state_key)
    if decision is ReviewDecision.APPROVE:
        verified = StepVerifiedFields(observation=fields.observation,
                                      build_claim=fields.build_claim,
                                      attempts=fields.attempts, gates=fields.gates)
        return verified_drafts(state, active.session, active.step, key, verified)
    failure = Failure(event=settled.entry.id, part="review", result="fail", reason=None,
                      feedback=f"rejected in review by {reviewer}: {reason}",
                      output_blob=None)
    return failed_drafts(active, key, failure, fields.attempts)
