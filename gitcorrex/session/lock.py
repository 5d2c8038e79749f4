"""`git correx plan lock`: start a session on a plan that validated and grounded on this state.

The lock needs three recorded facts about this plan identity: its latest validation is
`accepted` under the current profile, and its latest grounding on the *current* state key
is `pass` (a grounding on another key is stale: the workspace moved since). Every
precondition, including "this session does not exist yet", is re-checked inside the
compare-and-swap loop; `session_started` and `plan_locked` are recorded in one append.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.errors import UsageError
from gitcorrex.git import Repository, compute_state
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.plan_events import (
    PlanLockedFields,
    SessionStartedFields,
)
from gitcorrex.plan.lock_checks import LockFacts, Missing, lock_blockers
from gitcorrex.plan.open_plan import PlanContext, open_plan
from gitcorrex.profiles.profile_file import tree_profiles
from gitcorrex.session.replan import replan_session
from gitcorrex.session.selection import remember_session


@dataclass(frozen=True)
class LockOutcome:
    """The session and its two events, or what is missing (then nothing was recorded)."""

    plan: str
    plan_id: str
    session: str
    state_key: str
    events: list[RecordedEvent]
    missing: list[Missing]

    @property
    def conclusion(self) -> Conclusion:
        """OK when the plan was locked; failed when a blocker refused it."""
        return Conclusion.OK if self.events else Conclusion.CHECK_FAILED


def lock_plan(repo: Repository, path: Path, *, session: str | None, now: datetime,
              provenance: Provenance, replaces: str | None = None,
              expect_revision: int | None = None,
              baseline_unverified: str | None = None) -> LockOutcome:
    """Lock the plan at `path` into `session` (generated when None) on the current state key.

    The lock state is the first step's baseline, so a passing observation of it is needed;
    `baseline_unverified` (a non-empty reason) locks without one and records why. With
    `replaces`, re-plan the running `session` instead (session/replan.py).
    """
    _check_options(baseline_unverified, replaces)
    context = open_plan(repo, path)
    session_id = session or f"{context.plan_id}-{secrets.token_hex(4)}"
    ledger.check_session_id(session_id)
    state_key = compute_state(repo).state_key
    missing: list[Missing] = []
    if replaces is not None:
        return _replan(repo, context, session, replaces, state_key=state_key,
                       expect_revision=expect_revision, now=now, provenance=provenance)
    profile = tree_profiles(repo, [state_key])[state_key]

    def drafts(view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        found = lock_blockers(context, view, session=session_id, state_key=state_key,
                              baseline_required=baseline_unverified is None, profile=profile)
        missing[:] = found.missing
        if found.missing:
            return []
        return _lock_drafts(context, session_id, (state_key, profile), found,
                            baseline_unverified)

    events = ledger.append_events(repo, drafts, now=now, provenance=provenance)
    if events:
        remember_session(repo, session_id)
    return LockOutcome(plan=context.identity, plan_id=context.plan_id, session=session_id,
                       state_key=state_key, events=events, missing=missing)


def _check_options(baseline_unverified: str | None, replaces: str | None) -> None:
    if baseline_unverified is not None and not baseline_unverified.strip():
        raise UsageError("--baseline-unverified needs a reason",
                         hint="pass --reason TEXT saying why no verification is possible")
    if baseline_unverified is not None and replaces is not None:
        raise UsageError("--baseline-unverified applies to a new session, not a re-plan",
                         hint="drop --baseline-unverified (a re-plan keeps its baseline)")


def _lock_drafts(context: PlanContext, session: str, state: tuple[str, str | None],
                 found: LockFacts, unverified: str | None) -> list[ledger.EventDraft]:
    """session_started and plan_locked on `state` (its key and the blob of its profile,
    the profile the session is bound to)."""
    plan = context.loaded.plan
    state_key, profile = state
    validation, grounding = found.basis()
    started = SessionStartedFields(plan=context.identity, plan_id=plan.id,
                                   steps=[step.id for step in plan.steps])
    locked = PlanLockedFields(plan=context.identity, plan_id=plan.id,
                              validation=validation.id, grounding=grounding.id,
                              baseline_observation=found.baseline.id if found.baseline else None,
                              baseline_unverified=bound_text(unverified) if unverified else None,
                              profile=profile)
    subjects = (context.subject, state_key)
    return [
        ledger.EventDraft(started, subjects=subjects, session=session, state_key=state_key),
        ledger.EventDraft(locked, subjects=subjects, session=session, state_key=state_key),
    ]


def _replan(repo: Repository, context: PlanContext, session: str | None, replaces: str, *,
            state_key: str, expect_revision: int | None, now: datetime,
            provenance: Provenance) -> LockOutcome:
    if session is None:
        raise UsageError("--replaces re-plans a running session: name it with --session ID")
    missing: list[Missing] = []
    events = replan_session(repo, context, session, replaces, state_key=state_key,
                            expect_revision=expect_revision, now=now, provenance=provenance,
                            missing=missing)
    return LockOutcome(plan=context.identity, plan_id=context.plan_id, session=session,
                       state_key=state_key, events=events, missing=missing)
