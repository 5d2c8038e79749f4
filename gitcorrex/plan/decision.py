"""The decision on a plan: structure first, then who holds semantic authority (seed 003 §4.2-4.5).

Core never claims that natural-language usefulness is decidable. A structurally sound
plan is accepted only on a recorded authority: for a low-risk plan, an authorization by
a git identity; for a guarded plan, obligations that cover every step and are each tied
to an output, an authorization, and an outside audit of every obligation by another
identity (risk_audit.py). Without one the decision is `stop-escalate`.
Structural defects route to `reject` before execution starts and `replan-required`
after; a step the corrective authority routed `split-required` (`plan route`) makes the
plan `split-required`; a legacy plan (no verification maps) runs only on an authorization
recorded before it was first validated, with a diagnostic that the mapping was not
enforced.

The plan facts are read as their payload classes (`model/typed_facts.py`). A line of a
plan kind whose fields do not fit its class counts for nothing: no authorization, no
validation, no lock, no audit, no split route; the line itself stays in the ledger. (For
a legacy plan that includes its first validation: an unfit validation line does not mark
the point after which an authorization no longer counts.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gitcorrex.model.note_lines import LedgerEntry, typed_events
from gitcorrex.model.plan import Plan, Risk
from gitcorrex.model.plan_events import (
    Authority,
    AuthorityKind,
    Decision,
    Finding,
    PlanAuthorizedFields,
    PlanLockedFields,
    PlanRiskAuditedFields,
    PlanRoutedFields,
    PlanValidatedFields,
)
from gitcorrex.model.typed_facts import Fact, facts_of, in_time_order
from gitcorrex.plan.graph import step_where
from gitcorrex.plan.risk_audit import outside_audit
from gitcorrex.plan.split import split_findings


@dataclass(frozen=True)
class PlanHistory:
    """What the ledger holds about one plan identity, each list in time order."""

    authorizations: list[Fact[PlanAuthorizedFields]]
    validations: list[Fact[PlanValidatedFields]]
    locks: list[Fact[PlanLockedFields]]
    audits: list[Fact[PlanRiskAuditedFields]] = field(default_factory=list)
    routes: list[Fact[PlanRoutedFields]] = field(default_factory=list)

    @property
    def execution_started(self) -> bool:
        return bool(self.locks)


@dataclass(frozen=True)
class PlanDecision:
    """The decision with the findings behind it and any compatibility diagnostics."""

    decision: Decision
    authority: Authority | None
    findings: list[Finding]
    diagnostics: list[str]


_PLAN_FACTS = (PlanAuthorizedFields, PlanValidatedFields, PlanLockedFields,
               PlanRiskAuditedFields, PlanRoutedFields)
# the decisions of people a plan's decision rests on (signed ones only, when required)
PLAN_DECISIONS = frozenset({PlanAuthorizedFields.KIND, PlanRiskAuditedFields.KIND,
                            PlanRoutedFields.KIND})


def plan_history(entries: Sequence[LedgerEntry], identity: str) -> PlanHistory:
    """The plan facts about `identity` among `entries` (the plan blob's note); only the plan
    kinds are parsed, and a line that does not fit its class is left out."""
    typed = typed_events(entries, _PLAN_FACTS)
    mine = [t for t in typed if isinstance(t.payload, _PLAN_FACTS) and t.payload.plan == identity]
    return PlanHistory(authorizations=in_time_order(facts_of(mine, PlanAuthorizedFields)),
                       validations=in_time_order(facts_of(mine, PlanValidatedFields)),
                       locks=in_time_order(facts_of(mine, PlanLockedFields)),
                       audits=in_time_order(facts_of(mine, PlanRiskAuditedFields)),
                       routes=in_time_order(facts_of(mine, PlanRoutedFields)))


def decide(plan: Plan, structural: list[Finding], history: PlanHistory) -> PlanDecision:
    """Structure, then legacy policy, then the semantic authority for the plan's risk."""
    failing = structural if not plan.is_legacy else structural + _legacy_findings(history)
    if failing:
        route = Decision.REPLAN_REQUIRED if history.execution_started else Decision.REJECT
        return PlanDecision(route, None, failing, [])
    split = split_findings(plan, history.routes)
    if split:
        return PlanDecision(Decision.SPLIT_REQUIRED, None, split, [])
    if plan.is_legacy:
        first = _legacy_authorization(history)
        if first is None:
            raise ValueError(f"legacy plan {plan.id}: accepted without an authorization")
        note = (f"legacy plan (version 0): verification_map was not enforced; it runs under "
                f"the authorization {first.id[:12]} recorded at {first.at}, before it was "
                "first validated")
        return PlanDecision(Decision.ACCEPTED, _authority(first, legacy=True), [], [note])
    if plan.risk is Risk.GUARDED:
        audit, gaps = None, audit_gaps(plan)
        if not gaps:
            audit, gaps = outside_audit(plan, history.authorizations, history.audits)
        if audit is None:
            return PlanDecision(Decision.STOP_ESCALATE, None, gaps, [])
        return PlanDecision(Decision.ACCEPTED, _authority(audit, kind=AuthorityKind.RISK_AUDIT),
                            [], [])
    if not history.authorizations:
        return PlanDecision(Decision.STOP_ESCALATE, None, [_unauthorized()], [])
    return PlanDecision(Decision.ACCEPTED, _authority(history.authorizations[0]), [], [])


def audit_gaps(plan: Plan) -> list[Finding]:
    """Guarded coverage: every step has an obligation, every obligation is proven by an output."""
    found: list[Finding] = []
    for step in plan.steps:
        obligations = [p.failure_mode for p in plan.risk_audit.proofs if p.step == step.id]
        cited = {e.plan_risk_proof for entry in step.verification_map or []
                 for e in entry.evidence if e.plan_risk_proof is not None}
        if not obligations:
            found.append(Finding(
                code="audit_uncovered_step", step=step.id, where=step_where(plan, step),
                message=f"step {step.id} has no proof obligation in the risk audit: nobody "
                        "with authority assessed its semantic claims",
                hint=f'add [[risk_audit.proofs]] with step = "{step.id}" from the risk audit'))
        found += [Finding(
            code="audit_obligation_unproven", step=step.id,
            where=step_where(plan, step, ".verification_map"),
            message=f'step {step.id}: no output cites the obligation "{mode}" '
                    "(plan-risk-proof)",
            hint=f'map the output that rules out "{mode}" to '
                 f'{{ plan-risk-proof = "{mode}" }}, or reslice the step')
            for mode in obligations if mode not in cited]
    return found


def _legacy_authorization(history: PlanHistory) -> Fact[PlanAuthorizedFields] | None:
    """The first authorization recorded before the plan's first validation, if any."""
    first = history.authorizations[0] if history.authorizations else None
    if first is None or not history.validations:
        return first
    validated = history.validations[0]
    return first if (first.at, first.id) < (validated.at, validated.id) else None


def _legacy_findings(history: PlanHistory) -> list[Finding]:
    if _legacy_authorization(history) is not None:
        return []
    return [Finding(code="legacy_unauthorized", step=None, where="version",
                    message="a version 0 plan has no verification maps, and no authorization "
                            "was recorded before it was first validated: a new, replacement "
                            "or re-planned plan must carry a complete map",
                    hint="set version = 1 and map every output of every step to its evidence")]


def _unauthorized() -> Finding:
    return Finding(code="authorization_missing", step=None, where="risk",
                   message="a low-risk plan's semantic claims (useful state, no future step "
                           "needed) are accepted only by an authorization, and none is "
                           "recorded",
                   hint="review the plan, then run `git correx plan authorize PLAN`")


def _authority(fact: Fact[PlanAuthorizedFields] | Fact[PlanRiskAuditedFields], *,
               legacy: bool = False, kind: AuthorityKind | None = None) -> Authority:
    if kind is None:
        kind = AuthorityKind.LEGACY_AUTHORIZATION if legacy else AuthorityKind.AUTHORIZATION
    return Authority(kind=kind, event=fact.id, name=fact.payload.name, email=fact.payload.email)
