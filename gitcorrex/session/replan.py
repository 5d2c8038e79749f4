"""Re-planning a running session: `plan lock NEW --session ID --replaces OLD`.

The new plan must pass the same lock checks as a first lock (validation accepted under
the current profile, grounding `pass` on the current state key). It supersedes OLD
without consuming an implementation attempt, and without resetting one either: every step
whose identity (its canonical JSON) is unchanged carries its attempts and budget over
(`carried`), and a completed one whose dependencies all stay verified too stays verified
(`kept`); a changed or new step starts at 0. An administrative pause must be resumed
first. A semantic terminal pause is what a re-plan is for, and it ends it; a
controller-limit pause never ends by a re-plan (an agent could clear its own escalation):
only a person's `resume --budget N` lifts it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.errors import UsageError
from gitcorrex.git import Repository
from gitcorrex.model.canonical import canonical_json
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.plan import Plan, PlanStep
from gitcorrex.model.plan_events import PlanLockedFields
from gitcorrex.model.session_events import PauseCause, Transition
from gitcorrex.model.session_state import SessionState, SessionStatus, StepStatus
from gitcorrex.plan.load import load_plan
from gitcorrex.plan.lock_checks import Missing, lock_blockers
from gitcorrex.plan.open_plan import PlanContext
from gitcorrex.profiles.profile_file import tree_profiles
from gitcorrex.session.plan_source import session_plan
from gitcorrex.session.selection import remember_session
from gitcorrex.session.state import existing_state
from gitcorrex.session.transition import refuse, run_transition


def replan_session(repo: Repository, context: PlanContext, session: str, replaces: str, *,
                   state_key: str, expect_revision: int | None, now: datetime,
                   provenance: Provenance, missing: list[Missing]) -> list[RecordedEvent]:
    """Record the re-plan lock, or fill `missing` (lock preconditions) and record nothing."""
    read = existing_state(repo, session)
    old_identity = plan_reference(replaces)
    old = session_plan(repo, old_identity)
    new = context.loaded.plan
    profile = tree_profiles(repo, [state_key])[state_key]

    def admit(state: SessionState, view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        _check_replaceable(state, old_identity)
        found = lock_blockers(context, view, session=session, state_key=state_key)
        missing[:] = [m for m in found.missing if m.code != "session_exists"]
        if missing:
            return []
        validation, grounding = found.basis()
        fields = PlanLockedFields(plan=context.identity, plan_id=new.id,
                                  validation=validation.id,
                                  grounding=grounding.id, replaces=old_identity,
                                  steps=[s.id for s in new.steps],
                                  kept=kept_steps(old, new, state),
                                  carried=carried_steps(old, new, state), profile=profile)
        return [ledger.EventDraft(fields, subjects=(context.subject, state_key),
                                  session=session, state_key=state_key)]

    expected = read.revision if expect_revision is None else expect_revision
    events = run_transition(repo, session, transition=Transition.REPLAN, expected=expected,
                            admit=admit, now=now, provenance=provenance)
    if not missing:
        remember_session(repo, session)
    return events if not missing else []


def kept_steps(old: Plan, new: Plan, state: SessionState) -> list[str]:
    """New steps identical to a verified old step, whose dependencies are kept as well."""
    kept: list[str] = []
    for step in new.steps:
        before = old.step(step.id)
        done = state.step(step.id)
        same = before is not None and _identity(before) == _identity(step)
        if same and done is not None and done.status is StepStatus.VERIFIED and \
                all(d.step in kept for d in step.dependencies):
            kept.append(step.id)
    return kept


def carried_steps(old: Plan, new: Plan, state: SessionState) -> list[str]:
    """New steps identical to an old step of the session: their attempts carry over."""
    return [step.id for step in new.steps
            if (before := old.step(step.id)) is not None and state.step(step.id) is not None
            and _identity(before) == _identity(step)]


def plan_reference(given: str) -> str:
    """OLD as a plan file (its identity) or as the identity itself (40 hex digits)."""
    path = Path(given)
    if path.is_file():
        return load_plan(path).identity
    if len(given) == 40 and all(c in "0123456789abcdef" for c in given):
        return given
    raise UsageError(f"--replaces {given!r} is neither a plan file nor a plan identity",
                     hint="pass the superseded plan's file, or its identity from "
                          "`git correx session status`")


def _check_replaceable(state: SessionState, old_identity: str) -> None:
    if state.plan != old_identity:
        raise refuse(f"session {state.session} runs plan {str(state.plan)[:12]}, not "
                     f"{old_identity[:12]}", hint="--replaces must name the session's plan")
    if state.status is SessionStatus.COMPLETED:
        raise refuse(f"session {state.session} is completed", hint="start a new session")
    pause = state.pause
    if pause is not None and pause.cause == PauseCause.ADMINISTRATIVE.value:
        raise refuse(f"session {state.session} is paused by an operator ({pause.reason})",
                     hint="resume it first (`git correx resume --reason ...`)")


def _identity(step: PlanStep) -> str:
    return canonical_json(step.model_dump(mode="json", by_alias=True, exclude_none=True))

