"""`git correx plan validate`: decide step integrity and record `plan_validated`.

The structure is judged without the ledger; the authority and the route are judged
against the ledger at the tip the event is appended on (inside the compare-and-swap
loop), so a concurrent authorization or lock is never missed. With signed decisions
required, an unsigned authorization, audit or route is not counted and is named among the
diagnostics (ledger/decisions.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.git import Repository
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.plan_events import (
    Decision,
    Finding,
    PlanValidatedFields,
)
from gitcorrex.plan.decision import PLAN_DECISIONS, decide, plan_history
from gitcorrex.plan.integrity import structural_findings
from gitcorrex.plan.open_plan import PlanContext, open_plan


@dataclass(frozen=True)
class ValidationOutcome:
    """The recorded decision; exit 0 only when the plan is accepted."""

    fields: PlanValidatedFields
    event: RecordedEvent

    @property
    def accepted(self) -> bool:
        return self.fields.decision is Decision.ACCEPTED

    @property
    def conclusion(self) -> Conclusion:
        return Conclusion.OK if self.accepted else Conclusion.CHECK_FAILED


def validate_plan(repo: Repository, path: Path, *, now: datetime,
                  provenance: Provenance) -> ValidationOutcome:
    """Judge the plan at `path` under the work tree's profile and record the decision."""
    context = open_plan(repo, path)
    structural = structural_findings(context.loaded.plan, context.profile.profile)
    decided: list[PlanValidatedFields] = []

    def drafts(view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        decided[:] = [judge(context, structural, view)]
        return [ledger.EventDraft(decided[0], subjects=(context.subject,))]

    [event] = ledger.append_events(repo, drafts, now=now, provenance=provenance)
    return ValidationOutcome(decided[0], event)


def judge(context: PlanContext, structural: list[Finding],
          view: ledger.LedgerView) -> PlanValidatedFields:
    """The decision as of the ledger `view`, as the fields of a `plan_validated` event."""
    plan = context.loaded.plan
    history = plan_history(view.counted_on(context.subject), context.identity)
    result = decide(plan, structural, history)
    uncounted = [u.describe() for u in view.uncounted_on(context.subject).values()
                 if u.kind in PLAN_DECISIONS]
    return PlanValidatedFields(
        plan=context.identity, plan_id=plan.id, version=plan.version, risk=plan.risk.value,
        decision=result.decision, execution_started=history.execution_started,
        authority=result.authority, findings=result.findings,
        diagnostics=[*result.diagnostics, *uncounted],
        profile=context.profile.blob_oid)
