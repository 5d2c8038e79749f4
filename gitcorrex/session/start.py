"""`git correx step start STEP`: make STEP the active step, if the session admits it.

Admitted only when the step was not routed `split-required` by the corrective authority
(`plan route`), the session is not paused, no other step is active, every dependency
of STEP is verified, the profile is the one the session was locked under
(session/bound_profile.py), every change since the last settled state lies inside STEP's
writes and the current state is verified (session/safe_start.py), and no open workspace
precondition stands in the way (a bootstrap step, one declaring writes that cover the
missing path, may start to create it), and every artifact its stage `consumes` exists for
the session (stage_inputs.py). Every check is re-run inside the compare-and-swap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.git import Repository, compute_state, lookup_objects
from gitcorrex.model.adoption import MAX_LISTED_PATHS
from gitcorrex.model.events import Provenance, RecordedEvent, session_object_oid
from gitcorrex.model.plan import Plan, PlanStep, plan_identity
from gitcorrex.model.session_events import (
    StepStartedFields,
    Transition,
)
from gitcorrex.model.session_state import OpenPrecondition, SessionState, SessionStatus, StepStatus
from gitcorrex.model.write_manifest import Manifest
from gitcorrex.plan.graph import unmet_dependencies
from gitcorrex.plan.split import describe_split, split_routes
from gitcorrex.profiles.selection import Selection, select_expectation
from gitcorrex.session.bound_profile import bound_profile, check_profile_unchanged
from gitcorrex.session.plan_source import session_step
from gitcorrex.session.review import refuse_while_awaiting_review
from gitcorrex.session.safe_start import (
    changes_since_settled,
    check_inside_writes,
    check_verified_state,
)
from gitcorrex.session.selection import remember_session
from gitcorrex.session.stage_inputs import refuse_missing_inputs
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
    plan, step = session_step(repo, read, step_id)
    profile = bound_profile(repo, read).profile
    selection = select_expectation(profile, stage=step.stage, expect=None)
    state_key = compute_state(repo).state_key
    check_profile_unchanged(repo, read, state_key)
    missing = _absent_paths(repo, state_key, read.preconditions)
    changed = {read.settled: changes_since_settled(repo, read, state_key)}

    def admit(state: SessionState, view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        _refuse_split(view, state, step)
        if state.profile != read.profile:  # a re-plan raced us with another profile
            check_profile_unchanged(repo, state, state_key)
        if state.settled not in changed:  # another settlement or adoption raced us
            changed[state.settled] = changes_since_settled(repo, state, state_key)
        before = _admission(state, plan, step, (state_key, _verify_command(step, selection)),
                            missing, changed[state.settled])
        refuse_missing_inputs(view.scanned_on(session_object_oid(session)).entries, session,
                              plan, step, profile)
        fields = StepStartedFields(writes=list(step.writes),
                                   expectation_docs=not selection.commands,
                                   baseline=state.settled or state_key,
                                   writes_before_start=before[:MAX_LISTED_PATHS] or None)
        return [ledger.EventDraft(fields, subjects=(), session=session, stage=step.stage,
                                  step=step.id, state_key=state_key)]

    expected = read.revision if expect_revision is None else expect_revision
    events = run_transition(repo, session, transition=Transition.STEP_START, expected=expected,
                            admit=admit, now=now, provenance=provenance)
    remember_session(repo, session)
    return StepStart(session, step.id, state_key, events)


def _admission(state: SessionState, plan: Plan, step: PlanStep, here: tuple[str, str],
               missing: set[str], changed: list[str]) -> list[str]:
    """Every admission rule against `state` on `here` (the state key, and the `verify`
    that would verify it); the paths changed since the last settled state (all inside
    the step's writes: they count as its writes) when all hold."""
    state_key, verify = here
    if state.status is SessionStatus.PAUSED and state.pause is not None:
        raise refuse(f"session {state.session} is paused ({state.pause.cause}: "
                     f"{state.pause.reason})", hint="see `git correx resume -h`")
    if state.status is SessionStatus.COMPLETED or state.plan != _identity(state, plan):
        raise refuse(f"session {state.session} is {state.status.value} on plan "
                     f"{state.plan_id}", hint="read `git correx session status`")
    refuse_while_awaiting_review(state)
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
    inside = check_inside_writes(state, step, changed)
    check_verified_state(state, state_key, verify=verify)
    _check_preconditions(state, step, missing)
    return inside


def _verify_command(step: PlanStep, stage: Selection) -> str:
    """The `verify` that observes a build expectation for `step`: its stage's, when that
    runs a command; else the session's baseline expectation (a plain `verify`)."""
    return f"git correx verify --stage {step.stage}" if stage.commands else "git correx verify"


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
