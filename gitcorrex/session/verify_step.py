"""`git correx verify` inside a session: the observation settles the active step.

`pass` makes the step canonical (`step_verified`); `fail` or `unavailable` records
`step_failed` with the failing output fed back verbatim and one more attempt; when the
attempts reach the stage's `max_attempts` (or a budget raised on resume) the no-progress
arbiter escalates and pauses the session (`controller_limit`) in the same append. A step
that declares no writes, or whose expectation has no commands, completes without any
build claim: nothing runs and no observation is recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from gitcorrex import ledger
from gitcorrex.errors import UsageError
from gitcorrex.git.repository import Repository
from gitcorrex.git.state import compute_state
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.plan import Plan, PlanStep
from gitcorrex.model.plan_events import Decision
from gitcorrex.model.routes import Route
from gitcorrex.model.session_state import SessionState, SessionStatus
from gitcorrex.plan.decision import route_after_step_failure
from gitcorrex.profiles.load import load_profile
from gitcorrex.session.context import read_state, state_at
from gitcorrex.session.no_build_claim import complete_without_claim
from gitcorrex.session.plan_source import session_plan
from gitcorrex.session.settle import settle_drafts
from gitcorrex.verify.selection import select_expectation

if TYPE_CHECKING:
    from gitcorrex.verify.outcome import VerifyOutcome
    from gitcorrex.verify.usecase import VerifyRequest


@dataclass(frozen=True)
class ActiveStep:
    """The step an observation settles, with the budget and route in force."""

    session: str
    plan: Plan
    step: PlanStep
    max_attempts: int
    route: Route


def verify_in_session(repo: Repository, request: VerifyRequest, *,
                      clock: Callable[[], datetime], provenance: Provenance,
                      run: Callable[[VerifyRequest], VerifyOutcome]) -> VerifyOutcome:
    """Verify the active step of `request.session` (if any) with its stage's expectation
    and settle it; between steps, or when the session is not active, only observe."""
    assert request.session is not None
    state = read_state(repo, request.session)
    if state.active_step is None or state.status is not SessionStatus.ACTIVE:
        return run(_reverify(request, state))
    active = _active(repo, state, request)
    selection = select_expectation(load_profile(repo.root).profile, stage=active.step.stage,
                                   expect=None)
    if not active.step.writes or not selection.commands:
        return complete_without_claim(repo, active.session, active.step,
                                      state_key=compute_state(repo).state_key,
                                      expectation=selection.expectation, now=clock(),
                                      provenance=provenance)
    outcome = run(replace(request, stage=active.step.stage))
    if outcome.event is None:
        return outcome

    def drafts(view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        return settle_drafts(state_at(repo, view, active.session), active, outcome)

    events = ledger.append_events(repo, drafts, now=clock(), provenance=provenance)
    said = "\n".join(_describe(event) for event in events)
    return replace(outcome, summary=f"{outcome.summary}\n{said}" if said else outcome.summary)


def _reverify(request: VerifyRequest, state: SessionState) -> VerifyRequest:
    """Between steps, an unqualified `verify` re-observes the baseline's expectation."""
    baseline = state.baseline
    if request.stage or request.expect or baseline is None or baseline.expectation is None:
        return request
    return replace(request, expect=baseline.expectation)


def _active(repo: Repository, state: SessionState, request: VerifyRequest) -> ActiveStep:
    """The active step; an explicit --stage or --expect must not contradict it (exit 2)."""
    plan = session_plan(repo, state.plan)
    step = plan.step(str(state.active_step))
    if step is None:
        raise UsageError(f"the active step {state.active_step} is not in plan {state.plan_id}")
    if request.expect is not None or request.stage not in (None, step.stage):
        raise UsageError(f"step {step.id} of session {state.session} is verified with the "
                         f"expectation of its stage {step.stage!r}",
                         hint="drop --expect/--stage inside a session with an active step")
    profile = load_profile(repo.root).profile
    policy = profile.stages.get(step.stage)
    budget = policy.max_attempts if policy else 3
    current = state.step(step.id)
    raised = current.max_attempts if current and current.max_attempts else 0
    return ActiveStep(state.session, plan, step, max(budget, raised),
                      route_after_step_failure(Decision.ACCEPTED))


def _describe(event: RecordedEvent) -> str:
    kind, step, fields = event.kind, event.step, event.model_extra or {}
    if kind == "step_verified":
        return f"step {step} verified"
    if kind == "step_failed":
        return (f"step {step} failed (attempt {fields.get('attempts')} of "
                f"{fields.get('max_attempts')}): {fields.get('route')}")
    if kind == "session_paused":
        return f"session paused ({fields.get('cause')}): {fields.get('reason')}"
    if kind == "session_completed":
        return "session completed: every step is verified"
    return kind

