"""What a lock needs and what is missing: validation, grounding on this state key, a passing
verification of this state key (the first step's baseline), a new session.

The facts are read as their payload classes (`model/typed_facts.py`): the validation as
`PlanValidatedFields`, the grounding as `GroundingFields` (its state key from the envelope),
the baseline as `VerificationFields`. Only the kinds a lock needs are parsed. A line whose
fields do not fit its class is treated as absent: it is no validation, no grounding and no
passing baseline, and the latest *readable* fact decides. A missing validation or
grounding names such lines and the field at fault, so the refusal explains itself.
Anything unreadable is simply not a pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex import ledger
from gitcorrex.model.grounding import GroundingFields, Verdict
from gitcorrex.model.note_lines import TypedEvent, typed_events
from gitcorrex.model.observed_pass import is_under
from gitcorrex.model.plan_events import (
    Decision,
    PlanLockedFields,
    PlanValidatedFields,
)
from gitcorrex.model.record import Record
from gitcorrex.model.typed_facts import Fact, facts_of, latest, read_facts
from gitcorrex.model.verification import Result, VerificationFields
from gitcorrex.plan.open_plan import PlanContext
from gitcorrex.profiles.profile_file import PROFILE_NAME

Validation = Fact[PlanValidatedFields]
Grounding = Fact[GroundingFields]
Baseline = Fact[VerificationFields]


class Missing(Record):
    """One precondition of the lock that does not hold, and what to do about it."""

    code: str
    message: str
    hint: str


@dataclass(frozen=True)
class LockFacts:
    """The events a lock rests on, and what is missing (empty when it may be recorded)."""

    validation: Validation | None
    grounding: Grounding | None
    missing: list[Missing]
    baseline: Baseline | None = None

    def basis(self) -> tuple[Validation, Grounding]:
        """The validation and the grounding a recordable lock cites; a caller that did not
        check `missing` first gets a ValueError (a bug), never a lock without them."""
        if self.validation is None or self.grounding is None:
            raise ValueError("a lock needs a validation and a grounding: check `missing`")
        return self.validation, self.grounding


def lock_blockers(context: PlanContext, view: ledger.LedgerView, *, session: str,
                  state_key: str, baseline_required: bool = False,
                  profile: str | None = None) -> LockFacts:
    """Check every precondition against the ledger `view`; report all that fail.

    `baseline_required` (a new session's lock, unless `--baseline-unverified` records why
    not) adds the need for a passing observation of the lock state under `profile`, the
    blob of the lock state's `.correx.toml` (model/observed_pass.py); a re-plan keeps the
    running session's baseline instead."""
    typed = typed_events(view.scanned_on(context.subject).entries,
                         (PlanValidatedFields, GroundingFields))
    validations = [f for f in facts_of(typed, PlanValidatedFields)
                   if f.payload.plan == context.identity]
    groundings = [f for f in facts_of(typed, GroundingFields)
                  if f.payload.plan == context.identity]
    validation, problem = _validation(context, validations)
    if problem is None and validation is not None and view.signed_decisions:
        validation, problem = _counted_authority(context, view, validation)
    grounding, grounding_problem = _grounding(groundings, state_key)
    baseline, baseline_problem = _baseline(view, state_key, profile) if baseline_required \
        else (None, None)
    missing = [_naming_unfit(m, typed) for m in (problem, grounding_problem, baseline_problem,
                                                 _session_problem(view, session)) if m]
    return LockFacts(validation, grounding, missing, baseline)


_KIND_OF = {"validation_missing": PlanValidatedFields.KIND,
            "grounding_missing": GroundingFields.KIND}


def _naming_unfit(missing: Missing, typed: list[TypedEvent]) -> Missing:
    """A missing validation or grounding whose kind has lines on the plan's note that do
    not fit says so (they are not used), naming the first field at fault."""
    kind = _KIND_OF.get(missing.code)
    unfit = [t for t in typed if t.payload is None and t.entry.kind == kind]
    if not unfit:
        return missing
    note = (f" ({len(unfit)} {kind} line(s) on the plan's note do not fit and are not used: "
            f"{unfit[0].problem})")
    return missing.model_copy(update={"message": missing.message + note})


def _baseline(view: ledger.LedgerView, state_key: str,
              profile: str | None) -> tuple[Baseline | None, Missing | None]:
    """The first step starts on the lock state: a verification of it under the profile it
    holds must have passed (the latest readable one on this state key under that profile
    decides; one under another profile says nothing about this one's commands)."""
    observed = [f for f in read_facts(view.scanned_on(state_key).entries, VerificationFields)
                if f.state_key == state_key]
    last = latest(f for f in observed if is_under(f.payload, profile))
    unverified = ("or lock it knowingly: `git correx plan lock PLAN --baseline-unverified "
                  "--reason TEXT` (recorded)")
    if last is None and observed:
        return None, Missing(code="baseline_other_profile",
                             message=f"the workspace state {state_key[:12]} the session would "
                                     "start on was verified only under another profile than "
                                     f"the {PROFILE_NAME} it holds",
                             hint=f"run `git correx verify` on this state, {unverified}")
    if last is None:
        return None, Missing(code="baseline_unverified",
                             message=f"nothing verified the workspace state {state_key[:12]} "
                                     "the session would start on (no observation of it is "
                                     "recorded)",
                             hint=f"run `git correx verify` on this state, {unverified}")
    result = last.payload.result
    if result is not Result.PASS:
        return None, Missing(code="baseline_not_pass",
                             message=f"the latest verification of the workspace state "
                                     f"{state_key[:12]} ({last.id[:12]}) is {result.value}, "
                                     "not pass",
                             hint=f"fix what it reported and run `git correx verify`, "
                                  f"{unverified}")
    return last, None


def _validation(context: PlanContext,
                validations: list[Validation]) -> tuple[Validation | None, Missing | None]:
    last = latest(validations)
    if last is None:
        return None, Missing(code="validation_missing", message="the plan was never validated",
                             hint="run `git correx plan validate PLAN`")
    decision = last.payload.decision
    if decision is not Decision.ACCEPTED:
        return None, Missing(code="validation_not_accepted",
                             message=f"the latest validation decided {decision.value}, "
                                     "not accepted",
                             hint="fix what it reported (or authorize the plan), then run "
                                  "`git correx plan validate PLAN` again")
    if last.payload.profile != context.profile.blob_oid:
        return None, Missing(code="validation_stale",
                             message="the plan was validated under another .correx.toml",
                             hint="run `git correx plan validate PLAN` again")
    return last, None


def _counted_authority(context: PlanContext, view: ledger.LedgerView,
                       validation: Validation) -> tuple[Validation | None, Missing | None]:
    """With signed decisions required, the authorization or audit the accepted validation
    rests on must itself count: recorded on the plan's note and signed by a trusted key."""
    authority = validation.payload.authority
    event = authority.event if authority is not None else None
    uncounted = view.uncounted_on(context.subject).get(event or "")
    if uncounted is None and any(e.id == event for e in view.counted_on(context.subject)):
        return validation, None
    why = uncounted.describe() if uncounted is not None else \
        f"its authority {str(event)[:12]} is not a decision recorded on the plan"
    return None, Missing(code="authority_not_counted",
                         message=f"the validation {validation.id[:12]} rests on a decision "
                                 f"that does not count: {why}",
                         hint="a person records the decision signed (`git config correx.sign "
                              "true`), then `git correx plan validate PLAN` again")


def _grounding(groundings: list[Grounding],
               state_key: str) -> tuple[Grounding | None, Missing | None]:
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
    verdict = last.payload.verdict
    if verdict is not Verdict.PASS:
        return None, Missing(code="grounding_not_pass",
                             message=f"the latest grounding on this state key is "
                                     f"{verdict.value}, not pass",
                             hint="act on its findings (see `git correx plan ground PLAN`) "
                                  "and submit a new plan")
    return last, None


def _session_problem(view: ledger.LedgerView, session: str) -> Missing | None:
    entries = view.session_entries(session)  # kinds only: nothing here needs fields
    if not entries:
        return None
    locked = any(e.kind == PlanLockedFields.KIND for e in entries)
    what = "already has a locked plan" if locked else "already exists"
    return Missing(code="session_exists", message=f"session {session} {what}",
                   hint="omit --session to start a new session with a generated id")
