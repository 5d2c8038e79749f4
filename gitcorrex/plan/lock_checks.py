"""What a lock needs and what is missing: validation, grounding on this state key, a passing
verification of this state key (the first step's baseline), a new session.

The grounding event is written by `plan ground`; it is read defensively: its plan identity
from the `plan` field, its state key from the envelope, its verdict from the `verdict`
field. Anything unreadable is simply not a pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex import ledger
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.grounding import GroundingFields
from gitcorrex.model.plan_events import (
    Decision,
    PlanLockedFields,
    PlanValidatedFields,
)
from gitcorrex.model.record import Record
from gitcorrex.model.verification import VerificationFields
from gitcorrex.plan.context import PlanContext, latest


class Missing(Record):
    """One precondition of the lock that does not hold, and what to do about it."""

    code: str
    message: str
    hint: str


@dataclass(frozen=True)
class LockFacts:
    """The events a lock rests on, and what is missing (empty when it may be recorded)."""

    validation: RecordedEvent | None
    grounding: RecordedEvent | None
    missing: list[Missing]
    baseline: RecordedEvent | None = None

    def basis(self) -> tuple[RecordedEvent, RecordedEvent]:
        """The validation and the grounding a recordable lock cites; a caller that did not
        check `missing` first gets a ValueError (a bug), never a lock without them."""
        if self.validation is None or self.grounding is None:
            raise ValueError("a lock needs a validation and a grounding: check `missing`")
        return self.validation, self.grounding


def lock_blockers(context: PlanContext, view: ledger.LedgerView, *, session: str,
                  state_key: str, baseline_required: bool = False) -> LockFacts:
    """Check every precondition against the ledger `view`; report all that fail.

    `baseline_required` (a new session's lock, unless `--baseline-unverified` records why
    not) adds the need for a passing observation of the lock state; a re-plan keeps the
    running session's baseline instead."""
    events = [e for e in view.events_on(context.subject) if e.field("plan") == context.identity]
    validation, problem = _validation(context, events)
    grounding, grounding_problem = _grounding(events, state_key)
    baseline, baseline_problem = _baseline(view, state_key) if baseline_required else (None,
                                                                                       None)
    missing = [m for m in (problem, grounding_problem, baseline_problem,
                           _session_problem(view, session)) if m]
    return LockFacts(validation, grounding, missing, baseline)


def _baseline(view: ledger.LedgerView,
              state_key: str) -> tuple[RecordedEvent | None, Missing | None]:
    """The first step starts on the lock state: a verification of it must have passed (the
    latest one on this state key decides)."""
    observed = [e for e in view.events_on(state_key)
                if e.kind == VerificationFields.KIND and e.state_key == state_key]
    last = latest(observed)
    unverified = ("or lock it knowingly: `git correx plan lock PLAN --baseline-unverified "
                  "--reason TEXT` (recorded)")
    if last is None:
        return None, Missing(code="baseline_unverified",
                             message=f"nothing verified the workspace state {state_key[:12]} "
                                     "the session would start on (no observation of it is "
                                     "recorded)",
                             hint=f"run `git correx verify` on this state, {unverified}")
    result = last.field("result")
    if result != "pass":
        return None, Missing(code="baseline_not_pass",
                             message=f"the latest verification of the workspace state "
                                     f"{state_key[:12]} ({str(last.id)[:12]}) is {result}, "
                                     "not pass",
                             hint=f"fix what it reported and run `git correx verify`, "
                                  f"{unverified}")
    return last, None


def _validation(context: PlanContext,
                events: list[RecordedEvent]) -> tuple[RecordedEvent | None, Missing | None]:
    last = latest([e for e in events if e.kind == PlanValidatedFields.KIND])
    if last is None:
        return None, Missing(code="validation_missing", message="the plan was never validated",
                             hint="run `git correx plan validate PLAN`")
    decision = last.field("decision")
    if decision != Decision.ACCEPTED.value:
        return None, Missing(code="validation_not_accepted",
                             message=f"the latest validation decided {decision}, not accepted",
                             hint="fix what it reported (or authorize the plan), then run "
                                  "`git correx plan validate PLAN` again")
    if last.field("profile") != context.profile.blob_oid:
        return None, Missing(code="validation_stale",
                             message="the plan was validated under another .correx.toml",
                             hint="run `git correx plan validate PLAN` again")
    return last, None


def _grounding(events: list[RecordedEvent],
               state_key: str) -> tuple[RecordedEvent | None, Missing | None]:
    groundings = [e for e in events if e.kind == GroundingFields.KIND]
    here = [e for e in groundings if e.state_key == state_key]
    hint = "run `git correx plan ground PLAN` on this workspace state"
    if not groundings:
        return None, Missing(code="grounding_missing", message="the plan was never grounded",
                             hint=hint)
    last = latest(here)
    if last is None:
        keys = sorted({str(e.state_key)[:12] for e in groundings})
        return None, Missing(code="grounding_stale",
                             message=f"the plan was grounded only on other state keys "
                                     f"({', '.join(keys)}), not on the current {state_key[:12]}",
                             hint=hint)
    verdict = last.field("verdict")
    if verdict != "pass":
        return None, Missing(code="grounding_not_pass",
                             message=f"the latest grounding on this state key is {verdict}, "
                                     "not pass",
                             hint="act on its findings (see `git correx plan ground PLAN`) "
                                  "and submit a new plan")
    return last, None


def _session_problem(view: ledger.LedgerView, session: str) -> Missing | None:
    events = view.session_events(session)
    if not events:
        return None
    locked = any(e.kind == PlanLockedFields.KIND for e in events)
    what = "already has a locked plan" if locked else "already exists"
    return Missing(code="session_exists", message=f"session {session} {what}",
                   hint="omit --session to start a new session with a generated id")
