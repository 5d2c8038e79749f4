"""The session's state, folded from its events by one pure function.

`session status` and `replay --session` call the same fold on the same events, so their
state is identical by construction; the fold never reads a file, the clock or git. Each
transition event is re-validated against its payload model: a malformed one (a pause whose
provenance does not fit, a receipt with an oversized string) is a problem that fails the
whole session closed, while a pause written before provenance existed (no `cause` at all)
loads as `unattributed`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from gitcorrex.model.plan_events import PlanLockedFields, SessionStartedFields
from gitcorrex.model.preconditions import PreconditionClarified, PreconditionFailed
from gitcorrex.model.session_events import (
    PauseCause,
    SessionCompletedFields,
    SessionPausedFields,
    SessionResumedFields,
    StepFailedFields,
    StepStartedFields,
    StepVerifiedFields,
)
from gitcorrex.model.session_state import (
    Baseline,
    FoldProblem,
    OpenPrecondition,
    Pause,
    SessionState,
    SessionStatus,
    StepState,
    StepStatus,
)
from gitcorrex.model.verification import VerificationFields
from gitcorrex.replay.fold_input import FoldEvent

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


@dataclass
class _Fold:
    session: str
    plan: str | None = None
    plan_id: str | None = None
    plans: list[str] = field(default_factory=list)
    steps: dict[str, _Step] = field(default_factory=dict)
    active: str | None = None
    writes: list[str] = field(default_factory=list)
    baseline: Baseline | None = None
    pause: Pause | None = None
    completed: bool = False
    preconditions: dict[str, OpenPrecondition] = field(default_factory=dict)
    clarified: list[str] = field(default_factory=list)
    problems: list[FoldProblem] = field(default_factory=list)


def fold_session(session: str, events: Sequence[FoldEvent], *,
                 revision: int | None = None) -> SessionState:
    """Fold `events` (the session's, in seq order) into its state.

    `revision` is the session's event count when `events` leaves out events the fold
    ignores (see FOLDED_KINDS); by default every event given counts.
    """
    state = _Fold(session)
    mine = [event for event in events if event.session == session]
    for event in mine:
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(state, event)
    return _freeze(state, len(mine) if revision is None else revision)


def _payload(state: _Fold, event: FoldEvent, model: type[BaseModel]) -> Any:
    """The event's fields through `model`, or None (and a problem) when they do not fit."""
    try:
        return model.model_validate(event.model_extra or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or event.kind
        state.problems.append(FoldProblem(event=event.id, seq=event.seq, kind=event.kind,
                                          reason=f"{where}: {first['msg']}"[:1024]))
        return None


def _started(state: _Fold, event: FoldEvent) -> None:
    plan, steps = event.field("plan"), event.field("steps")
    state.plan, state.plan_id = str(plan), str(event.field("plan_id"))
    state.steps = {str(s): _Step() for s in steps} if isinstance(steps, list) else {}


def _locked(state: _Fold, event: FoldEvent) -> None:
    plan = str(event.field("plan"))
    if plan not in state.plans:
        state.plans.append(plan)
    if event.field("replaces") is None:
        if state.baseline is None and event.state_key is not None:
            unverified = event.field("baseline_unverified")
            state.baseline = Baseline(
                state_key=event.state_key, source="lock_unverified" if unverified else "lock",
                event=event.id, expectation=None, commands=[], changed_paths=[],
                changed_paths_omitted=0, reason=str(unverified) if unverified else None)
        return
    kept = set(_strings(event.field("kept")))
    carried = set(_strings(event.field("carried")))
    old = state.steps
    state.plan, state.plan_id = plan, str(event.field("plan_id"))
    state.steps = {s: old[s] if s in kept and s in old else
                   _carried(old[s]) if s in carried and s in old else _Step()
                   for s in _strings(event.field("steps"))}
    state.active, state.writes, state.completed = None, [], False
    if state.pause is not None and state.pause.cause not in _OUTLIVE_REPLAN:
        state.pause = None


# An operator's pause is resumed by the operator; an escalation only by a recorded budget.
_OUTLIVE_REPLAN = frozenset({PauseCause.ADMINISTRATIVE.value, PauseCause.CONTROLLER_LIMIT.value})


def _carried(step: _Step) -> _Step:
    """An unchanged step after a re-plan: its attempts, budget and feedback, not active."""
    status = step.status
    if status is StepStatus.VERIFIED:  # not kept: a dependency of it changed
        status = StepStatus.PENDING
    elif status is StepStatus.ACTIVE:
        status = StepStatus.FAILED if step.attempts else StepStatus.PENDING
    return _Step(status=status, attempts=step.attempts, max_attempts=step.max_attempts,
                 last_failure=step.last_failure, feedback=step.feedback)


def _strings(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def _observed(state: _Fold, event: FoldEvent) -> None:
    if event.field("result") != "pass" or event.state_key is None:
        return
    commands = event.field("commands")
    names = [str(c.get("name")) for c in commands if isinstance(c, dict)] \
        if isinstance(commands, list) else []
    changed = event.field("changed_paths")
    omitted = event.field("changed_paths_omitted")
    state.baseline = Baseline(
        state_key=event.state_key, source="observation", event=event.id,
        expectation=str(event.field("expectation")), commands=names,
        changed_paths=[str(p) for p in changed] if isinstance(changed, list) else [],
        changed_paths_omitted=omitted if isinstance(omitted, int) else 0)


def _step_started(state: _Fold, event: FoldEvent) -> None:
    found = _step_event(state, event, StepStartedFields, StepStatus.ACTIVE)
    if found is not None:
        fields, step_id, _ = found
        state.active, state.writes = step_id, list(fields.writes)


def _step_verified(state: _Fold, event: FoldEvent) -> None:
    found = _step_event(state, event, StepVerifiedFields, StepStatus.VERIFIED)
    if found is None:
        return
    fields, step_id, step = found
    step.attempts, step.verified_by = fields.attempts, fields.observation
    step.build_claim = fields.build_claim
    if state.active == step_id:
        state.active, state.writes = None, []
    if not fields.build_claim and event.state_key is not None:
        state.baseline = Baseline(state_key=event.state_key, source="no_build_claim",
                                  event=event.id, expectation=None, commands=[],
                                  changed_paths=[], changed_paths_omitted=0)


def _step_failed(state: _Fold, event: FoldEvent) -> None:
    found = _step_event(state, event, StepFailedFields, StepStatus.FAILED)
    if found is None:
        return
    fields, _, step = found
    step.max_attempts = max(step.max_attempts or 0, fields.max_attempts)
    step.attempts = fields.attempts
    step.last_failure, step.feedback = fields.observation, fields.feedback


def _step_event(state: _Fold, event: FoldEvent, model: type[BaseModel], status: StepStatus
                ) -> tuple[Any, str, _Step] | None:
    """A step event's fields, its step id and the step, which now has `status`; None (each
    flaw a problem, the step untouched) when the fields or the step id are missing."""
    fields = _payload(state, event, model)
    step_id = _step_id(state, event)
    if fields is None or step_id is None:
        return None
    step = state.steps.setdefault(step_id, _Step())
    step.status = status
    return fields, step_id, step


def _step_id(state: _Fold, event: FoldEvent) -> str | None:
    """The envelope's step; a step event without one is malformed."""
    if event.step is None:
        state.problems.append(FoldProblem(event=event.id, seq=event.seq, kind=event.kind,
                                          reason="a step event without a step"))
    return event.step


def _paused(state: _Fold, event: FoldEvent) -> None:
    extra = event.model_extra or {}
    if "cause" not in extra:  # written before pause provenance existed
        reason = extra.get("reason")
        state.pause = Pause(cause=UNATTRIBUTED, reason=reason if isinstance(reason, str) else "",
                            event=event.id, step=event.step, receipt=None, escalation=None)
        return
    fields = _payload(state, event, SessionPausedFields)
    if fields is None:
        state.pause = Pause(cause=MALFORMED, reason="malformed pause provenance",
                            event=event.id, step=event.step, receipt=None, escalation=None)
        return
    dumped = fields.model_dump(mode="json")
    state.pause = Pause(cause=fields.cause.value, reason=fields.reason, event=event.id,
                        step=event.step, receipt=dumped["receipt"],
                        escalation=dumped["escalation"])
    if fields.escalation is not None and fields.escalation.step in state.steps:
        state.steps[fields.escalation.step].status = StepStatus.BLOCKED


def _resumed(state: _Fold, event: FoldEvent) -> None:
    fields = _payload(state, event, SessionResumedFields)
    if fields is None:
        return
    pause, state.pause = state.pause, None
    escalation = pause.escalation if pause is not None else None
    if fields.budget is not None and escalation is not None:
        step = state.steps.get(str(escalation.get("step")))
        if step is not None:
            step.max_attempts = fields.budget
            step.status = StepStatus.FAILED if step.attempts else StepStatus.PENDING


def _completed(state: _Fold, event: FoldEvent) -> None:
    if _payload(state, event, SessionCompletedFields) is not None:
        state.completed = True


def _precondition(state: _Fold, event: FoldEvent) -> None:
    path = event.field("path")
    if not isinstance(path, str):
        return
    attempts, source, named_by = (event.field(k) for k in ("attempts", "source", "named_by"))
    state.preconditions[path] = OpenPrecondition(
        path=path, step=event.step, event=event.id,
        attempts=attempts if isinstance(attempts, int) else None,
        source=source if isinstance(source, str) else None,
        named_by=named_by if isinstance(named_by, str) else None)


def _clarified(state: _Fold, event: FoldEvent) -> None:
    path = event.field("path")
    if isinstance(path, str):
        state.preconditions.pop(path, None)
        if path not in state.clarified:
            state.clarified.append(path)


_HANDLERS: dict[str, Callable[[_Fold, FoldEvent], None]] = {
    SessionStartedFields.KIND: _started,
    PlanLockedFields.KIND: _locked,
    VerificationFields.KIND: _observed,
    StepStartedFields.KIND: _step_started,
    StepVerifiedFields.KIND: _step_verified,
    StepFailedFields.KIND: _step_failed,
    SessionPausedFields.KIND: _paused,
    SessionResumedFields.KIND: _resumed,
    SessionCompletedFields.KIND: _completed,
    PreconditionFailed.KIND: _precondition,
    PreconditionClarified.KIND: _clarified,
}

FOLDED_KINDS = frozenset(_HANDLERS)


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
        active_step=state.active, active_writes=state.writes, steps=steps,
        baseline=state.baseline, pause=state.pause,
        preconditions=sorted(state.preconditions.values(), key=lambda p: p.path),
        clarified=sorted(state.clarified), problems=state.problems)


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
