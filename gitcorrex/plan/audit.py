"""`git correx plan audit`: an outside identity audits a guarded plan's proof obligations.

The audit is a fact by a git identity (`plan_risk_audited`), bound to the plan identity:
changing a step, an output or an obligation makes another plan with no audit. It lists
the obligations the auditor assessed (`--proof STEP=MODE`, by default every one the plan
declares). It is refused, recording nothing, for a low-risk plan, a plan whose structure
does not hold, a plan with no obligations, and an identity that authorized the plan: the
audit must come from outside. The same identity auditing the same obligations again is
not recorded twice (checked inside the compare-and-swap loop).
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
from gitcorrex.model.plan import Plan, Risk
from gitcorrex.model.plan_events import (
    AuditedProof,
    Finding,
    PlanRiskAuditedFields,
)
from gitcorrex.plan.authority_outcome import AuthorityOutcome
from gitcorrex.plan.decision import plan_history
from gitcorrex.plan.integrity import structural_findings
from gitcorrex.plan.open_plan import open_plan
from gitcorrex.plan.risk_audit import Audit, Authorization, Identity, audited, obligations


@dataclass(frozen=True, kw_only=True)
class AuditOutcome(AuthorityOutcome):
    """The audit recorded, already recorded, or refused; `proofs` are the ones it covers."""

    proofs: list[AuditedProof]


def audit_plan(repo: Repository, path: Path, *, proofs: Sequence[str], note: str | None,
               now: datetime, provenance: Provenance) -> AuditOutcome:
    """Record `plan_risk_audited` by the current git identity, or say why it may not be."""
    auditor = Identity(provenance.name, provenance.email)
    if auditor.name is None and auditor.email is None:
        raise UsageError("a risk audit is recorded by a git identity, and none is set",
                         hint="set `git config user.name` and `git config user.email`")
    if note is not None and len(note) > 1024:
        raise UsageError("--note is longer than 1,024 characters",
                         hint="keep the note short; the audit's findings belong elsewhere")
    context = open_plan(repo, path)
    plan = context.loaded.plan
    chosen = chosen_proofs(plan, proofs)
    findings = _refusals(plan, structural_findings(plan, context.profile.profile))
    existing: list[Audit] = []

    def drafts(view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        history = plan_history(view.counted_on(context.subject), context.identity)
        findings[:] = [f for f in findings if f.code != "audit_by_authorizer"]
        findings.extend(_authorizer(auditor, history.authorizations))
        if findings:
            return []
        wanted = {(p.step, p.failure_mode) for p in chosen}
        existing[:] = [e for e in history.audits if Identity.of(e.payload) == auditor
                       and audited(e) == wanted][:1]
        if existing:
            return []
        fields = PlanRiskAuditedFields(plan=context.identity, plan_id=plan.id,
                                       name=auditor.name, email=auditor.email, proofs=chosen,
                                       note=note)
        return [ledger.EventDraft(fields, subjects=(context.subject,))]

    events = ledger.append_events(repo, drafts, now=now, provenance=provenance)
    return AuditOutcome(plan=context.identity, plan_id=plan.id, proofs=chosen,
                        event=events[0] if events else None,
                        existing=existing[0].event() if existing else None, findings=findings,
                        by=auditor if events or existing else None)


def chosen_proofs(plan: Plan, given: Sequence[str]) -> list[AuditedProof]:
    """`STEP=MODE` options as obligations of the plan (exit 2 naming an unknown one);
    none given: every obligation the plan declares."""
    declared = obligations(plan)
    if not given:
        return [AuditedProof(step=step, failure_mode=mode) for step, mode in declared]
    chosen: list[AuditedProof] = []
    for text in given:
        step, _, mode = text.partition("=")
        if (step, mode) not in declared:
            listed = "; ".join(f"{s}={m}" for s, m in declared) or "none"
            raise UsageError(f"--proof {text!r} is not a proof obligation of plan {plan.id}",
                             hint=f"name one as STEP=FAILURE_MODE; the plan declares: {listed}")
        if all((p.step, p.failure_mode) != (step, mode) for p in chosen):
            chosen.append(AuditedProof(step=step, failure_mode=mode))
    return chosen


def _refusals(plan: Plan, structural: list[Finding]) -> list[Finding]:
    """Why this plan cannot be audited at all, whoever audits it."""
    if plan.risk is not Risk.GUARDED:
        return [Finding(code="audit_not_guarded", step=None, where="risk",
                        message=f"plan {plan.id} is low risk: it runs on its authorization, "
                                "and a risk audit has nothing to decide",
                        hint='set risk = "guarded" with [[risk_audit.proofs]] if it needs one')]
    if not plan.risk_audit.proofs:
        structural = [*structural, Finding(
            code="audit_no_obligations", step=None, where="risk_audit.proofs",
            message=f"guarded plan {plan.id} declares no proof obligation to audit",
            hint="add [[risk_audit.proofs]] (step, failure_mode) for every step")]
    return structural


def _authorizer(auditor: Identity, authorizations: list[Authorization]) -> list[Finding]:
    if not any(auditor.same_as(Identity.of(e.payload)) for e in authorizations):
        return []
    return [Finding(code="audit_by_authorizer", step=None, where="risk",
                    message=f"{auditor} authorized this plan: its risk audit must come from "
                            "another identity", hint="ask an auditor who did not authorize "
                                                    "the plan to run `git correx plan audit`")]
