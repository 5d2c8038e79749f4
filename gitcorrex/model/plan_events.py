"""Kind-specific fields of the plan facts: validated, authorized, locked, and the session start.

A validation records the decision with the findings that caused it, so a reader learns
*why* a plan may not run without re-validating it. Decisions use only the existing
routes (seed 003 §4.3); `accepted` is the one decision that lets a plan be locked.
"""

from __future__ import annotations

from enum import Enum

from pydantic import Field

from gitcorrex.model.events import Oid
from gitcorrex.model.record import EventPayload, Record, SparsePayload
from gitcorrex.model.routes import Route
from gitcorrex.model.session_claims import Bounded, Named


class Decision(str, Enum):
    """`accepted`, or the route a plan that may not run takes (no new decision values)."""

    ACCEPTED = "accepted"
    REJECT = "reject"
    REPLAN_REQUIRED = "replan-required"
    SPLIT_REQUIRED = "split-required"
    STOP_ESCALATE = "stop-escalate"
    CONTINUE_FIX = "continue-fix"


class AuthorityKind(str, Enum):
    """Who accepted the semantic claims: an authorization (low), or the risk audit (guarded)."""

    AUTHORIZATION = "authorization"
    LEGACY_AUTHORIZATION = "legacy_authorization"
    RISK_AUDIT = "risk_audit"


class Finding(Record):
    """One reason a plan may not run: a stable code, the step (or None) and the field."""

    code: str
    step: str | None
    where: str
    message: str
    hint: str


class Authority(Record):
    """The semantic authority a decision rests on; `event` is the authorization's id."""

    kind: AuthorityKind
    event: str | None = None
    name: str | None = None
    email: str | None = None


class PlanValidatedFields(EventPayload):
    """`plan_validated`: the decision on one plan identity under one profile."""

    KIND = "plan_validated"

    plan: Oid
    plan_id: str
    version: int
    risk: str
    decision: Decision
    execution_started: bool
    authority: Authority | None
    findings: list[Finding]
    diagnostics: list[str]
    profile: Oid


class PlanAuthorizedFields(EventPayload):
    """`plan_authorized`: a git identity accepts the plan's semantic claims (low risk)."""

    KIND = "plan_authorized"

    plan: Oid
    plan_id: str
    name: str | None
    email: str | None


class AuditedProof(Record):
    """One proof obligation of the plan (step, failure mode) the auditor assessed."""

    step: Named
    failure_mode: Named


class PlanRiskAuditedFields(SparsePayload):
    """`plan_risk_audited`: a git identity audited a guarded plan's proof obligations.

    The plan file's `[[risk_audit.proofs]]` are the obligations; this event is the audit.
    It counts only when its identity is not one of the plan's authorizers.
    """

    KIND = "plan_risk_audited"

    plan: Oid
    plan_id: str
    name: str | None
    email: str | None
    proofs: list[AuditedProof]
    note: Bounded | None = None


class PlanRoutedFields(EventPayload):
    """`plan_routed`: the corrective authority (a git identity) routes one step of a plan
    (the envelope's `step`).

    `split-required`: the step's task boundary must split; the step may not start, and the
    plan is not accepted again: a replacement plan is needed.
    """

    KIND = "plan_routed"

    plan: Oid
    plan_id: str
    route: Route
    reason: Named
    name: str | None
    email: str | None


class PlanLockedFields(EventPayload):
    """`plan_locked`: the plan and the validation and pass grounding (event ids) it rests on.

    The state key it was locked on is the envelope's `state_key`; the passing observation
    of it is `baseline_observation`, or `baseline_unverified` holds the reason given for
    locking on a state nothing verified. A re-plan of a running
    session (`plan lock NEW --session ID --replaces OLD`) adds the plan it supersedes, the
    new plan's step ids, the steps that stay verified (`kept`) and the steps whose identity
    is unchanged and so keep their attempts and budget (`carried`): a re-plan is no
    parallel counter, and a changed or new step starts at 0. `profile` is the blob of the
    lock state's `.correx.toml`: the profile the session is bound to, under which alone
    an observation moves its baseline (model/observed_pass.py); absent on locks recorded
    before it was (their sessions trust each observation's own profile).
    """

    KIND = "plan_locked"
    OMIT_WHEN_NONE = frozenset({"replaces", "steps", "kept", "baseline_observation",
                                "baseline_unverified", "carried", "profile"})

    plan: Oid
    plan_id: str
    validation: str
    grounding: str
    replaces: Oid | None = None
    steps: list[str] | None = None
    kept: list[str] | None = None
    baseline_observation: str | None = None
    baseline_unverified: str | None = Field(default=None, max_length=1024)
    carried: list[str] | None = None
    profile: Oid | None = None


class SessionStartedFields(EventPayload):
    """`session_started`: the session executes exactly this plan identity."""

    KIND = "session_started"

    plan: Oid
    plan_id: str
    steps: list[str]
