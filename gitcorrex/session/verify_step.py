"""`git correx verify` inside a session: the settlement (session/settlement.py: write
evidence, the stage's gates, the step's checks and build expectation) settles the active
step.

All passing makes the step canonical (`step_verified`); any failure records one
`step_failed` with the failing part's output fed back verbatim and one more attempt; when the
attempts reach the stage's `max_attempts` (or a budget raised on resume) the no-progress
arbiter escalates and pauses the session (`controller_limit`) in the same append. A step
that declares no writes, or whose expectation has no commands, completes without any
build claim: nothing runs and no observation is recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.errors import UsageError
from gitcorrex.git import Repository, StateProbe
from gitcorrex.model.plan_events import Decision
from gitcorrex.model.session_state import SessionState, SessionStatus
from gitcorrex.profiles.load import load_profile
from gitcorrex.profiles.selection import select_expectation
from gitcorrex.session.failure_route import route_after_step_failure
from gitcorrex.session.no_build_claim import complete_without_claim
from gitcorrex.session.plan_source import session_plan
from gitcorrex.session.review import refuse_while_awaiting_review
from gitcorrex.session.settled_step import ActiveStep
from gitcorrex.session.settlement import Settlement, settle_step
from gitcorrex.session.state import session_state

if TYPE_CHECKING:
    from gitcorrex.verify.outcome import VerifyOutcome
    from gitcorrex.verify.request import VerifyContext, VerifyRequest


def verify_in_session(repo: Repository, request: VerifyRequest, context: VerifyContext, *,
                      artifacts: Mapping[str, Path], probe: StateProbe,
                      run: Callable[[VerifyRequest], VerifyOutcome]) -> VerifyOutcome:
    """Settle the active step of `request.session` (if any) by the one settlement path
    (session/settlement.py); between steps, or when the session is not active, only
    observe."""
    if request.session is None:
        raise ValueError("verify_in_session needs the request's session")
    state = session_state(repo, request.session)
    if state.active_step is None or state.status is not SessionStatus.ACTIVE:
        return run(_reverify(request, state))
    refuse_while_awaiting_review(state)  # a guarded step's settlement waits for its review
    active = _active(repo, state, request)
    loaded = load_profile(repo.root)
    selection = select_expectation(loaded.profile, stage=active.step.stage, expect=None)
    if not active.step.writes or not selection.commands:
        return complete_without_claim(repo, active, state_key=probe.measure().state_key,
                                      expectation=selection.expectation,
                                      now=context.clock(), provenance=context.provenance)
    settlement = Settlement(repo, active, request, context.env, artifacts, context.clock,
                            context.provenance, probe)
    return settle_step(settlement, loaded, selection, run)


def _reverify(request: VerifyRequest, state: SessionState) -> VerifyRequest:
    """Between steps, an unqualified `verify` re-observes the baseline's expectation."""
    baseline = state.baseline
    if request.stage or request.expect or baseline is None or baseline.expectation is None:
        return request
    return request.but(expect=baseline.expectation)


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
