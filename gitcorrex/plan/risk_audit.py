"""Whether a guarded plan has its outside audit (seed 003 §4.2: the independent auditor).

A guarded plan needs *more* approval than a low-risk one, never less: an execution
authorization by a git identity, and one `plan_risk_audited` by an identity that is none of
the plan's authorizers, covering every proof obligation the plan declares. The
`[[risk_audit.proofs]]` written in the plan file are the obligations; they are never the
audit. Two identities are the same when their emails match (case-insensitively) or their
names do: an author who changes only one of them is not an outside auditor.

Authorizations and audits arrive as typed facts (`plan_history`): a line whose fields do
not fit its class is neither an authorization nor an audit here.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.model.event_order import time_order
from gitcorrex.model.plan import Plan
from gitcorrex.model.plan_events import (
    Finding,
    PlanAuthorizedFields,
    PlanRiskAuditedFields,
    PlanRoutedFields,
)
from gitcorrex.model.typed_facts import Fact

Authorization = Fact[PlanAuthorizedFields]
Audit = Fact[PlanRiskAuditedFields]


@dataclass(frozen=True)
class Identity:
    """A git identity as recorded on a plan fact (either part may be unset)."""

    name: str | None
    email: str | None

    @classmethod
    def of(cls, payload: PlanAuthorizedFields | PlanRiskAuditedFields | PlanRoutedFields
           ) -> Identity:
        """The identity a plan fact was recorded by."""
        return cls(payload.name, payload.email)

    def same_as(self, other: Identity) -> bool:
        emails = self.email and other.email and self.email.casefold() == other.email.casefold()
        names = self.name and other.name and self.name == other.name
        return bool(emails or names)

    def __str__(self) -> str:
        return f"{self.name or '?'} <{self.email or '?'}>"


def obligations(plan: Plan) -> list[tuple[str, str]]:
    """(step, failure mode) of every proof obligation the plan declares, in plan order."""
    return [(p.step, p.failure_mode) for p in plan.risk_audit.proofs]


def audited(audit: Audit) -> set[tuple[str, str]]:
    """The (step, failure mode) pairs one `plan_risk_audited` fact covers."""
    return {(p.step, p.failure_mode) for p in audit.payload.proofs}


def outside_audit(plan: Plan, authorizations: list[Authorization],
                  audits: list[Audit]) -> tuple[Audit | None, list[Finding]]:
    """The latest independent audit covering every obligation, or the findings saying why not."""
    if not authorizations:
        return None, [_finding("authorization_missing", "a guarded plan runs on an execution "
                               "authorization and an outside risk audit; no authorization is "
                               "recorded", "review the plan, then `git correx plan authorize "
                               "PLAN`; then an auditor runs `git correx plan audit PLAN`")]
    if not audits:
        return None, [_finding("audit_missing", "no risk audit is recorded: the proofs in the "
                               "plan file are obligations, not an audit",
                               "an auditor other than the authorizer runs "
                               "`git correx plan audit PLAN`")]
    authorizers = [Identity.of(e.payload) for e in authorizations]
    outside = [e for e in audits
               if not any(Identity.of(e.payload).same_as(a) for a in authorizers)]
    if not outside:
        who = ", ".join(sorted({str(Identity.of(e.payload)) for e in audits}))
        return None, [_finding("audit_not_independent", f"every risk audit was recorded by an "
                               f"authorizer of the plan ({who}): the audit must come from "
                               "another identity", "an auditor who did not authorize the "
                               "plan runs `git correx plan audit PLAN`")]
    return _covering(plan, outside)


def _covering(plan: Plan, outside: list[Audit]) -> tuple[Audit | None, list[Finding]]:
    needed = obligations(plan)
    latest = sorted(outside, key=time_order, reverse=True)
    for event in latest:
        if set(needed) <= audited(event):
            return event, []
    best = max(latest, key=lambda e: len(set(needed) & audited(e)))
    by = Identity.of(best.payload)
    return None, [Finding(
        code="audit_incomplete", step=step, where="risk_audit.proofs",
        message=f'the outside audit {best.id[:12]} by {by} does not cover '
                f'the obligation "{mode}" of step {step}',
        hint=f'audit it: git correx plan audit PLAN --proof "{step}={mode}"')
        for step, mode in needed if (step, mode) not in audited(best)]


def _finding(code: str, message: str, hint: str) -> Finding:
    return Finding(code=code, step=None, where="risk", message=message, hint=hint)
