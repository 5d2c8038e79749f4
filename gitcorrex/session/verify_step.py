"""`git correx verify` inside a session: the settlement (session/settlement.py: write
evidence, the stage's gates, the step's checks and build expectation) settles the active
step, under the profile the session is locked under (session/bound_profile.py).

All passing makes the step canonical (`step_verified`); any failure records one
`step_failed` with the failing part's output fed back verbatim and one more attempt; when the
attempts reach the stage's `max_attempts` (or a budget raised on resume) the no-progress
arbiter escalates and pauses the session (`controller_limit`) in the same append. Every
step runs its own plan checks: a step without a build claim (no declared writes, or a docs
expectation) is verified only when they pass, and records them as its checks, never as a
build claim. A step whose checks run nothing is activity-only (session/no_build_claim.py).

Between steps, `verify` in the session observes the state under the locked profile (the
pass the next `step start` needs). A work-tree profile that is not the locked one stops
both (exit 1, nothing run or recorded).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.errors import UsageError
from gitcorrex.git import Repository, StateProbe
from gitcorrex.model.plan_events import Decision
from gitcorrex.model.session_state import SessionState, SessionStatus
from gitcorrex.profiles.selection import select_expectation
from gitcorrex.session.bound_profile import (
    BoundProfile,
    bound_profile,
    check_profile_unchanged,
    locked_blob,
)
from gitcorrex.session.failure_route import route_after_step_failure
from gitcorrex.session.no_build_claim import complete_without_claim
from gitcorrex.session.plan_source import session_plan
from gitcorrex.session.review import refuse_while_awaiting_review
from gitcorrex.session.settled_step import ActiveStep
from gitcorrex.session.settlement import Observe, Settlement, settle_step
from gitcorrex.session.state import session_state
from gitcorrex.session.step_commands import makes_build_claim, step_selection
from gitcorrex.verify.selection import selected_commands_of

if TYPE_CHECKING:
    from gitcorrex.verify.outcome import VerifyOutcome
    from gitcorrex.verify.request import VerifyContext, VerifyRequest


def verify_in_session(repo: Repository, request: VerifyRequest, context: VerifyContext, *,
                      artifacts: Mapping[str, Path], probe: StateProbe,
                      run: Observe) -> VerifyOutcome:
    """Settle the active step of `request.session` (if any) by the one settlement path
    (session/settlement.py); between steps, or when the session is not active, only
    observe."""
    if request.session is None:
        raise ValueError("verify_in_session needs the request's session")
    state = session_state(repo, request.session)
    if state.plan is None:  # an id no lock started yet (a lock may follow): only observe
        return run(request)
    key = probe.measure().state_key
    check_profile_unchanged(repo, state, key)
    if state.active_step is None or state.status is not SessionStatus.ACTIVE:
        return run(_reverify(repo, request, state))
    refuse_while_awaiting_review(state)  # a guarded step's settlement waits for its review
    bound = bound_profile(repo, state)
    active = _active(repo, state, request, bound)
    settlement = Settlement(repo, active, request, context.env, artifacts, context.clock,
                            context.provenance, probe)
    return settle_active_step(settlement, bound, run, key=key)


def settle_active_step(s: Settlement, bound: BoundProfile, run: Observe, *,
                       key: str) -> VerifyOutcome:
    """Every step runs its own checks (after its stage's build expectation when it makes a
    build claim); a step whose checks run nothing either is activity-only."""
    step = s.active.step
    stage = select_expectation(bound.profile, stage=step.stage, expect=None)
    commands = step_selection(bound.profile, step, stage)
    if not commands.commands:
        return complete_without_claim(s.repo, s.active, state_key=key,
                                      expectation=stage.expectation, now=s.clock(),
                                      provenance=s.provenance)
    return settle_step(s, bound, commands, run, key=key,
                       claim=makes_build_claim(step, stage))


def _reverify(repo: Repository, request: VerifyRequest, state: SessionState) -> VerifyRequest:
    """Between steps, `verify` runs the locked profile (its selection stored by the blob:
    nothing parsed); unqualified, it re-observes the baseline's expectation."""
    baseline = state.baseline
    expect = request.expect
    if not (request.stage or expect) and baseline is not None:
        expect = baseline.expectation
    chosen = selected_commands_of(repo, locked_blob(state), stage=request.stage, expect=expect,
                                  label=f"session {state.session}'s lock")
    return request.but(expect=expect, selection=chosen)


def _active(repo: Repository, state: SessionState, request: VerifyRequest,
            bound: BoundProfile) -> ActiveStep:
    """The active step; an explicit --stage or --expect must not contradict it (exit 2)."""
    plan = session_plan(repo, state.plan)
    step = plan.step(str(state.active_step))
    if step is None:
        raise UsageError(f"the active step {state.active_step} is not in plan {state.plan_id}")
    if request.expect is not None or request.stage not in (None, step.stage):
        raise UsageError(f"step {step.id} of session {state.session} is verified with the "
                         f"expectation of its stage {step.stage!r}",
                         hint="drop --expect/--stage inside a session with an active step")
    policy = bound.profile.stages.get(step.stage)
    budget = policy.max_attempts if policy else 3
    current = state.step(step.id)
    raised = current.max_attempts if current and current.max_attempts else 0
    return ActiveStep(state.session, plan, step, max(budget, raised),
                      route_after_step_failure(Decision.ACCEPTED))
