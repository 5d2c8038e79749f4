"""The session's state, folded from its events by one pure function.

`session status` and `replay --session` call the same fold on the same events, so their
state is identical by construction; the fold never reads a file, the clock or git. Events
arrive with their payloads read into their classes (`model/note_lines.typed_events`) and
the fold matches on those classes. A transition whose payload does not fit (a pause whose
provenance does not fit, a receipt with an oversized string) is a problem that fails the
whole session closed, while a pause written before provenance existed (no `cause` at all)
loads as `unattributed`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from gitcorrex.model.adoption import ChangesAdoptedFields
from gitcorrex.model.note_lines import LedgerEntry, LineActor, TypedEvent
from gitcorrex.model.observed_pass import is_pass_under
from gitcorrex.model.plan_events import PlanLockedFields, SessionStartedFields
from gitcorrex.model.preconditions import PreconditionClarified, PreconditionFailed
from gitcorrex.model.record import EventPayload
from gitcorrex.model.session_events import (
    PauseCause,
    SessionCompletedFields,
    SessionPausedFields,
    SessionResumedFields,
    StepAwaitingReviewFields,
    StepFailedFields,
    StepReviewedFields,
    StepStartedFields,
    StepVerifiedFields,
)
from gitcorrex.model.session_state import (
    Baseline,
    FoldProblem,
    OpenPrecondition,
    Pause,
    RuntimeActor,
    SessionState,
    SessionStatus,
    StepState,
    StepStatus,
)
from gitcorrex.model.verification import VerificationFields

UNATTRIBUTED = "unattributed"
MALFORMED = "malformed"


@dataclass
class _Step:
    status: StepStatus = StepStatus.PENDING
    attempts: int = 0
    max_attempts: int | None = None
    verified_by: str | None = None
    build_claim: bool | None = None
    last_failure: str | None = None
    feedback: str | None = None
    reviewed: bool = False  # a counted review decided the settlement awaiting it


@dataclass
class _Fold:
    session: str
    plan: str | None = None
    plan_id: str | None = None
    plans: list[str] = field(default_factory=list)
    steps: dict[str, _Step] = field(default_factory=dict)
    active: str | None = None
    writes: list[str] = field(default_factory=list)
    actor: RuntimeActor | None = None
    baseline: Baseline | None = None
    pause: Pause | None = None
    completed: bool = False
    preconditions: dict[str, OpenPrecondition] = field(default_factory=dict)
    clarified: list[str] = field(default_factory=list)
    problems: list[FoldProblem] = field(default_factory=list)
    profile: str | None = None
    settled: str | None = None
    verified: list[str] = field(default_factory=list)


def fold_session(session: str, events: Sequence[TypedEvent], *,
                 revision: int | None = None,
                 uncounted: frozenset[str] = frozenset()) -> SessionState:
    """Fold `events` (the session's, in seq order, read by `typed_events`) into its state.

    `revision` is the session's event count when `events` leaves out events the fold
    ignores (see FOLDED_KINDS); by default every event given counts. `uncounted` names
    operator decisions that do not count (ledger/decisions.py: unsigned while signed
    decisions are required): a resume or a clarification among them changes nothing, and a
    lock among them does not make its unverified state the baseline.
    """
    return fold_session_kept(session, events, revision=revision, uncounted=uncounted)[0]


def fold_session_kept(session: str, events: Sequence[TypedEvent], *,
                      revision: int | None = None,
                      uncounted: frozenset[str] = frozenset()
                      ) -> tuple[SessionState, dict[str, Any]]:
    """`fold_session`, and the fold's working state as JSON: `continue_session_fold` goes
    on from it over later events, so a writer that appends to a long session folds only
    what it appended (the state alone does not hold enough: a step shown `blocked` hides
    its own status)."""
    state = _Fold(session)
    applied = _apply_all(state, events, uncounted)
    frozen = _freeze(state, applied if revision is None else revision)
    return frozen, _kept(state)


def continue_session_fold(kept: dict[str, Any], events: Sequence[TypedEvent], *,
                          revision: int) -> tuple[SessionState, dict[str, Any]]:
    """The fold `kept` (from `fold_session_kept` or this) continued over `events`, which
    must all come after the events it folded in session order; KeyError, TypeError or
    ValueError when `kept` is not a fold this version kept."""
    state = _unkept(kept)
    _apply_all(state, events, frozenset())
    return _freeze(state, revision), _kept(state)


def _apply_all(state: _Fold, events: Sequence[TypedEvent], uncounted: frozenset[str]) -> int:
    """Apply the session's events in the order given; how many were the session's."""
    mine = [event for event in events if event.entry.session == state.session]
    for entry, payload, problem in mine:
        if payload is None:
            _unreadable(state, entry, problem or "does not fit its kind")
        elif entry.id not in uncounted or isinstance(payload, PlanLockedFields):
            _apply(state, entry, payload, counted=entry.id not in uncounted)
    return len(mine)


def _kept(state: _Fold) -> dict[str, Any]:
    """The working state as JSON (a copy: folding on changes nothing kept)."""
    kept: dict[str, Any] = json.loads(json.dumps(asdict(state)))
    return kept


def _unkept(kept: dict[str, Any]) -> _Fold:
    """The working state `_kept` gave."""
    def optional(cls: Any, value: dict[str, Any] | None) -> Any:
        return None if value is None else cls(**value)

    steps = {step_id: _Step(**{**step, "status": StepStatus(step["status"])})
             for step_id, step in kept["steps"].items()}
    return _Fold(**{
        **kept, "steps": steps, "actor": optional(RuntimeActor, kept["actor"]),
        "baseline": optional(Baseline, kept["baseline"]),
        "pause": optional(Pause, kept["pause"]),
        "preconditions": {path: OpenPrecondition(**value)
                          for path, value in kept["preconditions"].items()},
        "problems": [FoldProblem(**problem) for problem in kept["problems"]]})


def _apply(state: _Fold, entry: LedgerEntry, payload: EventPayload, *,
           counted: bool = True) -> None:
    """One event, by the class of its payload (`counted`: its operator decision counts)."""
    match payload:
        case SessionStartedFields():
            state.plan, state.plan_id = payload.plan, payload.plan_id
            state.steps = {step: _Step() for step in payload.steps}
        case PlanLockedFields():
            _locked(state, entry, payload, unverified_counts=counted)
        case VerificationFields():
            _observed(state, entry, payload)
        case (StepStartedFields() | StepVerifiedFields() | StepFailedFields()
              | StepAwaitingReviewFields()):
            _step_event(state, entry, payload)
        case SessionPausedFields():
            _paused(state, entry, payload)
        case SessionResumedFields():
            _resumed(state, payload)
        case StepReviewedFields():
            if entry.step is not None and entry.step in state.steps:
                state.steps[entry.step].reviewed = True
        case SessionCompletedFields():
            state.completed = not any(_undecided(step) for step in state.steps.values())
        case ChangesAdoptedFields():
            state.settled = entry.state_key or state.settled
        case PreconditionFailed():
            state.preconditions[payload.path] = OpenPrecondition(
                path=payload.path, step=entry.step, event=entry.id, attempts=payload.attempts,
                source=payload.source.value, named_by=payload.named_by)
        case PreconditionClarified():
            state.preconditions.pop(payload.path, None)
            if payload.path not in state.clarified:
                state.clarified.append(payload.path)


# Transitions fail the session closed when unreadable; a lock, start, observation or
# precondition that does not fit its class is not used (nothing unproven is used).
_TRANSITION_TYPES: tuple[type[EventPayload], ...] = (
    StepStartedFields, StepVerifiedFields, StepFailedFields, StepAwaitingReviewFields,
    StepReviewedFields, SessionPausedFields, SessionResumedFields, SessionCompletedFields)
_TRANSITIONS = frozenset(p.KIND for p in _TRANSITION_TYPES)


def _unreadable(state: _Fold, entry: LedgerEntry, problem: str) -> None:
    """A payload that does not fit its class: a pause from before provenance (no `cause`)
    is `unattributed`; another transition is a problem that fails the session closed."""
    if entry.kind == SessionPausedFields.KIND:
        legacy = json.loads(entry.line)
        if "cause" not in legacy:  # written before pause provenance existed
            reason = legacy.get("reason")
            state.pause = Pause(cause=UNATTRIBUTED, reason=reason if isinstance(reason, str)
                                else "", event=entry.id, step=entry.step, receipt=None,
                                escalation=None)
            return
        state.pause = Pause(cause=MALFORMED, reason="malformed pause provenance",
                            event=entry.id, step=entry.step, receipt=None, escalation=None)
    if entry.kind in _TRANSITIONS:
        state.problems.append(FoldProblem(event=entry.id, seq=entry.seq, kind=entry.kind,
                                          reason=problem))


def _locked(state: _Fold, entry: LedgerEntry, payload: PlanLockedFields, *,
            unverified_counts: bool = True) -> None:
    if payload.plan not in state.plans:
        state.plans.append(payload.plan)
    if payload.profile is not None:  # the profile the session is bound to from here on
        state.profile = payload.profile  # (a state verified before holds the old profile)
    if payload.replaces is None:
        unverified = payload.baseline_unverified
        if unverified and not unverified_counts:
            return  # locked, on a state no counted decision accepts as the baseline
        if state.baseline is None and entry.state_key is not None:
            state.baseline = Baseline(
                state_key=entry.state_key, source="lock_unverified" if unverified else "lock",
                event=entry.id, expectation=None, commands=[], changed_paths=[],
                changed_paths_omitted=0, reason=unverified or None)
            state.settled = entry.state_key
            if payload.baseline_observation is not None:  # the lock's pass of its state
                _mark_verified(state, entry.state_key)
        return
    kept, carried, old = set(payload.kept or ()), set(payload.carried or ()), state.steps
    state.plan, state.plan_id = payload.plan, payload.plan_id
    state.steps = {s: old[s] if s in kept and s in old else
                   _carried(old[s]) if s in carried and s in old else _Step()
                   for s in payload.steps or ()}
    state.active, state.writes, state.actor, state.completed = None, [], None, False
    if state.pause is not None and state.pause.cause not in _OUTLIVE_REPLAN:
        state.pause = None


# An operator's pause is resumed by the operator; an escalation only by a recorded budget.
_OUTLIVE_REPLAN = frozenset({PauseCause.ADMINISTRATIVE.value, PauseCause.CONTROLLER_LIMIT.value})


def _carried(step: _Step) -> _Step:
    """An unchanged step after a re-plan: its attempts, budget and feedback, not active."""
    status = step.status
    if status is StepStatus.VERIFIED:  # not kept: a dependency of it changed
        status = StepStatus.PENDING
    elif status in (StepStatus.ACTIVE, StepStatus.AWAITING_REVIEW):
        status = StepStatus.FAILED if step.attempts else StepStatus.PENDING
    return _Step(status=status, attempts=step.attempts, max_attempts=step.max_attempts,
                 last_failure=step.last_failure, feedback=step.feedback)


def _observed(state: _Fold, entry: LedgerEntry, payload: VerificationFields) -> None:
    """A pass under the profile the session was locked under moves the baseline; a session
    locked before locks recorded it (or never locked) trusts each observation's own."""
    trusted = payload.profile if state.profile is None else state.profile
    if not is_pass_under(payload, trusted) or entry.state_key is None:
        return
    _mark_verified(state, entry.state_key)
    state.baseline = Baseline(
        state_key=entry.state_key, source="observation", event=entry.id,
        expectation=payload.expectation, commands=[c.name for c in payload.commands],
        changed_paths=list(payload.changed_paths),
        changed_paths_omitted=payload.changed_paths_omitted)


def _mark_verified(state: _Fold, state_key: str) -> None:
    if state_key not in state.verified:
        state.verified.append(state_key)


def _step_event(state: _Fold, entry: LedgerEntry,
                payload: StepStartedFields | StepVerifiedFields | StepFailedFields
                | StepAwaitingReviewFields) -> None:
    """A step's start, verification, failure or settlement awaiting review; one without an
    envelope step is malformed."""
    if entry.step is None:
        state.problems.append(FoldProblem(event=entry.id, seq=entry.seq, kind=entry.kind,
                                          reason="a step event without a step"))
        return
    step = state.steps.setdefault(entry.step, _Step())
    if isinstance(payload, StepVerifiedFields | StepFailedFields) and _undecided(step):
        return  # a settlement awaiting review ends only by a review that counts
    step.reviewed = False
    if isinstance(payload, StepStartedFields):
        step.status = StepStatus.ACTIVE
        state.active, state.writes = entry.step, list(payload.writes)
        state.actor = _runtime_actor(entry)
    elif isinstance(payload, StepAwaitingReviewFields):
        step.status, step.attempts = StepStatus.AWAITING_REVIEW, payload.attempts
        step.max_attempts = max(step.max_attempts or 0, payload.max_attempts)
    elif isinstance(payload, StepVerifiedFields):
        _verified(state, entry, step, payload)
    else:
        step.status, step.attempts = StepStatus.FAILED, payload.attempts
        step.max_attempts = max(step.max_attempts or 0, payload.max_attempts)
        step.last_failure, step.feedback = payload.observation, payload.feedback


def _undecided(step: _Step) -> bool:
    """Awaiting a review that has not been given, or whose decision does not count (an
    unsigned `step_reviewed` while signed decisions are required: the `step_verified` or
    `step_failed` recorded with it counts no more than it does)."""
    return step.status is StepStatus.AWAITING_REVIEW and not step.reviewed


def _verified(state: _Fold, entry: LedgerEntry, step: _Step,
              payload: StepVerifiedFields) -> None:
    step.status, step.attempts = StepStatus.VERIFIED, payload.attempts
    step.verified_by, step.build_claim = payload.observation, payload.build_claim
    if state.active == entry.step:
        state.active, state.writes, state.actor = None, [], None
    if entry.state_key is not None:  # a step without a build claim leaves the baseline
        state.settled = entry.state_key


def _runtime_actor(entry: LedgerEntry) -> RuntimeActor:
    """Who recorded `entry` as the step's runtime actor: identity, host, runtime name."""
    actor = LineActor.model_validate_json(entry.line).actor
    return RuntimeActor(name=actor.name, email=actor.email, host=actor.host,
                        runtime_name=actor.runtime_name)


def _paused(state: _Fold, entry: LedgerEntry, payload: SessionPausedFields) -> None:
    dumped = payload.model_dump(mode="json")
    state.pause = Pause(cause=payload.cause.value, reason=payload.reason, event=entry.id,
                        step=entry.step, receipt=dumped["receipt"],
                        escalation=dumped["escalation"])
    if payload.escalation is not None and payload.escalation.step in state.steps:
        state.steps[payload.escalation.step].status = StepStatus.BLOCKED


def _resumed(state: _Fold, payload: SessionResumedFields) -> None:
    pause, state.pause = state.pause, None
    escalation = pause.escalation if pause is not None else None
    if payload.budget is not None and escalation is not None:
        step = state.steps.get(str(escalation.get("step")))
        if step is not None:
            step.max_attempts = payload.budget
            step.status = StepStatus.FAILED if step.attempts else StepStatus.PENDING


# The classes the fold matches on: what `typed_events` reads a session's lines into.
FOLDED_TYPES: tuple[type[EventPayload], ...] = (
    SessionStartedFields, PlanLockedFields, VerificationFields, PreconditionFailed,
    PreconditionClarified, ChangesAdoptedFields, *_TRANSITION_TYPES)
FOLDED_KINDS = frozenset(p.KIND for p in FOLDED_TYPES)


def _freeze(state: _Fold, revision: int) -> SessionState:
    waiting = {p.step for p in state.preconditions.values() if p.step is not None}
    steps = [StepState(id=step_id, status=_shown_status(step, step_id in waiting),
                       attempts=step.attempts, max_attempts=step.max_attempts,
                       verified_by=step.verified_by, build_claim=step.build_claim,
                       last_failure=step.last_failure, feedback=step.feedback)
             for step_id, step in state.steps.items()]
    return SessionState(
        session=state.session, exists=revision > 0, status=_status(state),
        plan=state.plan, plan_id=state.plan_id, plans=state.plans, revision=revision,
        active_step=state.active, active_writes=state.writes, active_actor=state.actor,
        steps=steps,
        baseline=state.baseline, pause=state.pause,
        preconditions=sorted(state.preconditions.values(), key=lambda p: p.path),
        clarified=sorted(state.clarified), problems=state.problems, profile=state.profile,
        settled=state.settled, verified=state.verified)


def _shown_status(step: _Step, waiting: bool) -> StepStatus:
    if waiting and step.status in (StepStatus.PENDING, StepStatus.ACTIVE, StepStatus.FAILED):
        return StepStatus.BLOCKED
    return step.status


def _status(state: _Fold) -> SessionStatus:
    if state.problems:
        return SessionStatus.INVALID
    if state.pause is not None:
        return SessionStatus.PAUSED
    return SessionStatus.COMPLETED if state.completed else SessionStatus.ACTIVE
