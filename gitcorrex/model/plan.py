"""The plan file: steps with postconditions, the checks that prove them, and their causes.

A plan is model-authored, so the model only carries *shape*: strict types, known keys,
unique step ids. Whether a step is a valid increment (every output mapped exactly once,
evidence resolving inside its step, causal acyclic dependencies, checks naming profile
entries) is decided by `plan validate`, which reports findings with a route instead of
refusing to read the file. Identity is the git blob id of the canonical JSON: arrays keep
their order (index references point into them), so reordering outputs, checks or steps
is a different plan, while the file's formatting never is.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import (
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from gitcorrex.model.canonical import canonical_json
from gitcorrex.model.events import git_blob_oid
from gitcorrex.model.record import Record
from gitcorrex.model.session_claims import ClaimClass, Named

PLAN_VERSION = 1
LEGACY_PLAN_VERSION = 0

PlanId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,47}$")]
StepId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")]
Name = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
Text = Annotated[str, StringConstraints(min_length=1)]
Index = Annotated[int, Field(ge=0)]

_STRICT = ConfigDict(strict=True, populate_by_name=True)


class Risk(str, Enum):
    """Who holds semantic authority: the authorization (low) or the risk audit (guarded)."""

    LOW = "low"
    GUARDED = "guarded"


class Evidence(Record):
    """One proof of an output: `{ check = i }` or `{ plan-risk-proof = "<failure mode>" }`."""

    model_config = _STRICT

    check: Index | None = None
    plan_risk_proof: Text | None = Field(default=None, alias="plan-risk-proof")

    @model_validator(mode="after")
    def _exactly_one(self) -> Evidence:
        if (self.check is None) == (self.plan_risk_proof is None):
            raise PydanticCustomError(
                "evidence_shape", "write exactly one of `check = <index>` or "
                '`plan-risk-proof = "<failure mode>"`')
        return self


class OutputEvidence(Record):
    """Which evidence proves expected output number `output` of the same step."""

    model_config = _STRICT

    output: Index
    evidence: list[Evidence]


class Dependency(Record):
    """A causal edge: this step needs outputs `requires` (indices) of step `step`."""

    model_config = _STRICT

    step: StepId
    requires: list[Index]


class BlockerEdge(Record):
    """A blocker claim that may pause this step terminally: the workflow author's declared
    edge (seed 004). `pause --claim` is admitted only when class, provider and fact match
    one; the claim's subject and expected value stay the claim's own."""

    model_config = _STRICT

    claim_class: ClaimClass = Field(alias="class", strict=False)
    provider: Named
    fact: Named

    def matches(self, claim_class: ClaimClass, provider: str, fact: str) -> bool:
        return (self.claim_class, self.provider, self.fact) == (claim_class, provider, fact)

    def __str__(self) -> str:
        return f"{self.claim_class.value} {self.provider}:{self.fact}"


class PlanStep(Record):
    """One increment. `verification_map` is None only when absent (legacy or incomplete);
    `blockers` is None when the step declares none (so older plans keep their identity)."""

    model_config = _STRICT

    id: StepId
    stage: Name
    writes: list[Text] = Field(default_factory=list)
    references: list[Text] = Field(default_factory=list)
    symbols: list[Text] = Field(default_factory=list)
    prerequisites: list[Text] = Field(default_factory=list)
    expected_outputs: list[Text] = Field(default_factory=list)
    checks: list[Name] = Field(default_factory=list)
    verification_map: list[OutputEvidence] | None = None
    dependencies: list[Dependency] = Field(default_factory=list)
    blockers: list[BlockerEdge] | None = None


class ProofObligation(Record):
    """A failure mode the guarded plan's risk audit must prove absent for one step."""

    model_config = _STRICT

    step: StepId
    failure_mode: Text


class RiskAudit(Record):
    """The guarded plan's proof obligations; empty for a low-risk plan."""

    model_config = _STRICT

    proofs: list[ProofObligation] = Field(default_factory=list)


class Plan(Record):
    """The whole plan file. Version 0 is the legacy form without verification maps."""

    model_config = _STRICT

    version: Literal[0, 1]
    id: PlanId
    risk: Risk = Field(strict=False)
    steps: list[PlanStep]
    risk_audit: RiskAudit = Field(default_factory=RiskAudit)

    @field_validator("version", mode="before")
    @classmethod
    def _refuse_bool(cls, value: Any) -> Any:
        if isinstance(value, bool):  # `true == 1` in Python; never in a plan
            raise PydanticCustomError("literal_error", "not a version")
        return value

    @model_validator(mode="after")
    def _check_shape(self) -> Plan:
        seen: set[str] = set()
        for index, step in enumerate(self.steps):
            if step.id in seen:
                raise _located("duplicate_step", ("steps", index, "id"),
                               f'step id "{step.id}" is used twice',
                               "give every step a unique id")
            seen.add(step.id)
            if self.version == LEGACY_PLAN_VERSION and step.verification_map is not None:
                raise _located("legacy_map", ("steps", index, "verification_map"),
                               "version 0 (legacy) plans carry no verification_map",
                               f"set version = {PLAN_VERSION} to use verification maps")
        return self

    @property
    def is_legacy(self) -> bool:
        return self.version == LEGACY_PLAN_VERSION

    def step(self, step_id: str) -> PlanStep | None:
        """The step called `step_id`, or None when the plan has none by that id."""
        return next((s for s in self.steps if s.id == step_id), None)


def _located(kind: str, loc: tuple[str | int, ...], message: str,
             hint: str) -> PydanticCustomError:
    """A model-level refusal that still carries the key path it is about."""
    return PydanticCustomError(kind, "{message}", {"message": message, "hint": hint,
                                                   "loc": loc})


def plan_document(plan: Plan) -> dict[str, Any]:
    """The plan as plain JSON values; absent optional fields stay absent (never `null`)."""
    return plan.model_dump(mode="json", by_alias=True, exclude_none=True)


def canonical_plan_json(plan: Plan) -> str:
    """Sorted keys, compact, ASCII: the same plan always has the same bytes."""
    return canonical_json(plan_document(plan))


def plan_identity(plan: Plan) -> str:
    """The git blob id of the canonical JSON: what events cite and where notes hang."""
    return git_blob_oid(canonical_plan_json(plan).encode("ascii"))
