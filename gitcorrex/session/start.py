"""`git correx step start STEP`: make STEP the active step, if the session admits it.

Admitted only when the step was not routed `split-required` by the corrective authority
(`plan route`), the session is not paused, no other step is active, every dependency
of STEP is verified, the current state key is the known-good baseline (the latest pass of
the session; before the first, the state the plan was locked on), and no open workspace
precondition stands in the way (a bootstrap step, one declaring writes that cover the
missing path, may start to create it). Every check is re-run inside the compare-and-swap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.git import Repository, compute_state, lookup_objects
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.plan import Plan, PlanStep, plan_identity
from gitcorrex.model.session_events import (
    StepStartedFields,
    Transition,
)
from gitcorrex.model.session_state import OpenPrecondition, SessionState, SessionStatus, StepStatus
from gitcorrex.model.write_manifest import Manifest
from gitcorrex.plan.graph import unmet_dependencies
from gitcorrex.plan.split import describe_split, split_routes
from gitcorrex.profiles.load import load_profile
from gitcorrex.profiles.selection import select_expectation
from gitcorrex.session.plan_source import session_plan
from gitcorrex.session.selection import remember_session
from gitcorrex.session.state import existing_state
from gitcorrex.session.transition import refuse, run_transition


@dataclass(frozen=True)
class StepStart:
    """The step now active, the revision it was admitted from, and the recorded events."""

    session: str
    step: str
    state_key: str
    events: list[RecordedEvent]


def start_step(repo: Repository, session: str, step_id: str, *, expect_revision: int | None,
               now: datetime, provenance: Provenance) -> StepStart:
    """Admit and record the start of `step_id`; TransitionRefusedError (exit 1) says why not."""
    read = existing_state(repo, session)
    plan = session_plan(repo, read.plan)
    step = plan.step(step_id)
    if step is None:
        raise refuse(f"plan {read.plan_id} has no step {step_id!r}",
                     hint=f"steps: {', '.join(s.id for s in plan.steps)}")
    selection = select_expectation(load_profile(repo.root).profile, stage=step.stage,
                                   expect=None)
    state_key = compute_state(repo).state_key
    missing = _absent_paths(repo, state_key, read.preconditions)

    def admit(state: SessionState, view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        _refuse_split(view, state, step)
        baseline = _admission(state, plan, step, state_key, missing)
        fields = StepStartedFields(writes=list(step.writes),
                                   expectation_docs=not selection.commands, baseline=baseline)
        return [ledger.EventDraft(fields, subjects=(), session=session, stage=step.stage,
                                  step=step.id, state_key=state_key)]

    expected = read.revision if expect_revision is None else expect_revision
    events = run_transition(repo, session, transition=Transition.STEP_START, expected=expected,
                            admit=admit, now=now, provenance=provenance)
    remember_session(repo, session)
    return StepStart(session, step.id, state_key, events)


def _admission(state: SessionState, plan: Plan, step: PlanStep, state_key: str,
               missing: set[str]) -> str:
    """Every admission rule against `state`; the baseline state key when all hold."""
    if state.status is SessionStatus.PAUSED and state.pause is not None:
        raise refuse(f"session {state.session} is paused ({state.pause.cause}: "
                     f"{state.pause.reason})", hint="see `git correx resume -h`")
    if state.status is SessionStatus.COMPLETED or state.plan != _identity(state, plan):
        raise refuse(f"session {state.session} is {state.status.value} on plan "
                     f"{state.plan_id}", hint="read `git correx session status`")
    if state.active_step is not None:
        raise refuse(f"step {state.active_step} is active", hint="verify it first "
                     "(`git correx verify`): a session has at most one active step")
    current = state.step(step.id)
    if current is None or current.status is StepStatus.VERIFIED:
        raise refuse(f"step {step.id} is {current.status.value if current else 'unknown'}",
                     hint="start a step that is not verified yet")
    verified = [s.id for s in state.steps if s.status is StepStatus.VERIFIED]
    unverified = unmet_dependencies(step, verified)
    if unverified:
        raise refuse(f"step {step.id} depends on {', '.join(unverified)}, not verified yet",
                     hint=f"start and verify {unverified[0]} first")
    _check_baseline(state, state_key)
    _check_preconditions(state, step, missing)
    if state.baseline is None:  # _check_baseline refuses first; kept explicit for the type
        raise refuse("the session has no baseline", hint="lock a plan first")
    return state.baseline.state_key


def _refuse_split(view: ledger.LedgerView, state: SessionState, step: PlanStep) -> None:
    """A step the corrective authority routed split-required never starts (plan/split.py)."""
    routed = split_routes(view.counted_on(str(state.plan)), str(state.plan), step.id)
    if routed:
        raise refuse(describe_split(routed[0]),
                     hint="its task boundary must split: lock a replacement plan with "
                          "`git correx plan lock NEW --session ID --replaces OLD`")


def _identity(state: SessionState, plan: Plan) -> str | None:
    """The plan read at the start is the session's plan unless a re-plan raced us."""
    return plan_identity(plan)


def _check_baseline(state: SessionState, state_key: str) -> None:
    baseline = state.baseline
    if baseline is None:
        raise refuse(f"session {state.session} has no known-good baseline",
                     hint="lock the plan again on a clean state")
    if baseline.state_key != state_key:
        raise refuse(f"the workspace ({state_key[:12]}) is not the known-good baseline "
                     f"({baseline.state_key[:12]}): {_baseline_story(baseline.source)}",
                     hint="re-verify (`git correx verify`), or restore the baseline state")


def _baseline_story(source: str) -> str:
    """What the baseline is and what happened since, in the words of its source."""
    if source == "lock_unverified":
        return ("it is the state the plan was locked on, which nothing verified "
                "(--baseline-unverified), and the workspace changed since the lock")
    if source == "lock":
        return "it is the verified state the plan was locked on, and the workspace changed since"
    if source == "no_build_claim":
        return ("it is the state a step without a build claim completed on, and the workspace "
                "changed since")
    return "the workspace changed after that verification, so the baseline is invalid"


def _check_preconditions(state: SessionState, step: PlanStep, missing: set[str]) -> None:
    writes = Manifest(tuple(step.writes), f"step {step.id!r}")
    for open_one in state.preconditions:
        if open_one.path not in missing:
            continue
        if step.writes and writes.allows(open_one.path):
            continue  # a bootstrap step: it creates the missing path
        raise refuse(f"workspace precondition: {open_one.path} is absent from the state tree "
                     f"(reported {open_one.attempts or '?'} times, event "
                     f"{open_one.event[:12]}); step {step.id} does not create it",
                     hint="start a bootstrap step that writes it, or record a clarification: "
                          f"git correx session clarify {open_one.path} --reason TEXT")


def _absent_paths(repo: Repository, state_key: str,
                  preconditions: list[OpenPrecondition]) -> set[str]:
    """The open preconditions' paths that the current state tree does not hold."""
    paths = [p.path for p in preconditions]
    found = lookup_objects(repo, [f"{state_key}:{path}" for path in paths])
    return {path for path, info in zip(paths, found, strict=True) if info is None}
