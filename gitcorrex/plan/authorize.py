"""`git correx plan authorize`: a git identity accepts a low-risk plan's semantic claims.

Only a plan whose structure holds and that carries complete verification maps can be
authorized: a legacy plan (version 0) is never authorized anew (seed 003 §4.5). An
identity that already authorized this plan is not recorded twice (checked inside the
compare-and-swap loop); an authorization line whose fields do not fit
`PlanAuthorizedFields` is no authorization (plan_history), so it is recorded anew.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.errors import UsageError
from gitcorrex.git import Repository
from gitcorrex.model.events import Provenance
from gitcorrex.model.plan_events import (
    Decision,
    Finding,
    PlanAuthorizedFields,
)
from gitcorrex.plan.authority_outcome import AuthorityOutcome
from gitcorrex.plan.decision import plan_history
from gitcorrex.plan.integrity import structural_findings
from gitcorrex.plan.open_plan import open_plan
from gitcorrex.plan.risk_audit import Authorization, Identity


@dataclass(frozen=True, kw_only=True)
class AuthorizationOutcome(AuthorityOutcome):
    """The authorization recorded, already recorded, or refused; `decision` is the plan's."""

    decision: Decision | None


def authorize_plan(repo: Repository, path: Path, *, now: datetime,
                   provenance: Provenance) -> AuthorizationOutcome:
    """Record `plan_authorized` by the current git identity, or say why it may not be."""
    name, email = provenance.name, provenance.email
    if name is None and email is None:
        raise UsageError("an authorization is recorded by a git identity, and none is set",
                         hint="set `git config user.name` and `git config user.email`")
    context = open_plan(repo, path)
    plan = context.loaded.plan
    findings = structural_findings(plan, context.profile.profile)
    if plan.is_legacy:
        findings.append(_legacy_refusal())
    existing: list[Authorization] = []
    refused: list[Decision] = []

    def drafts(view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        history = plan_history(view.counted_on(context.subject), context.identity)
        if findings:
            started = history.execution_started
            refused[:] = [Decision.REPLAN_REQUIRED if started else Decision.REJECT]
            return []
        existing[:] = [e for e in history.authorizations
                       if (e.payload.name, e.payload.email) == (name, email)][:1]
        if existing:
            return []
        fields = PlanAuthorizedFields(plan=context.identity, plan_id=plan.id, name=name,
                                      email=email)
        return [ledger.EventDraft(fields, subjects=(context.subject,))]

    events = ledger.append_events(repo, drafts, now=now, provenance=provenance)
    standing = bool(events or existing)
    return AuthorizationOutcome(
        plan=context.identity, plan_id=plan.id, decision=refused[0] if refused else None,
        event=events[0] if events else None,
        existing=existing[0].event() if existing else None, findings=findings,
        by=Identity(name, email) if standing else None)


def _legacy_refusal() -> Finding:
    return Finding(code="legacy_unauthorized", step=None, where="version",
                   message="a version 0 plan has no verification maps; a new authorization "
                           "needs a complete map",
                   hint="set version = 1 and map every output of every step to its evidence")
