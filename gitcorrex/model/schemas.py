"""JSON Schemas of the events we write, generated from the models.

Other tools (CI dashboards, other languages) read the ledger; the committed schemas in
`schemas/` are their contract, and a test fails when they go stale against the models.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, create_model

from gitcorrex.model.assessment import ASSESSMENT_KIND, AssessmentFields
from gitcorrex.model.events import Actor, ToolVersions
from gitcorrex.model.gates import (
    ARTIFACTS_KIND,
    BRIEF_GROUNDING_KIND,
    ECHO_KIND,
    STATIC_KIND,
    ArtifactsChecked,
    BriefEchoMismatch,
    BriefGroundingChecked,
    StaticAnalysisCompleted,
)
from gitcorrex.model.grounding import GROUNDING_KIND, GroundingFields
from gitcorrex.model.plan_events import (
    AUDITED_KIND,
    AUTHORIZED_KIND,
    LOCKED_KIND,
    ROUTED_KIND,
    SESSION_STARTED_KIND,
    VALIDATED_KIND,
    PlanAuthorizedFields,
    PlanLockedFields,
    PlanRiskAuditedFields,
    PlanRoutedFields,
    PlanValidatedFields,
    SessionStartedFields,
)
from gitcorrex.model.preconditions import (
    PRECONDITION_CLARIFIED_KIND,
    PRECONDITION_FAILED_KIND,
    PreconditionClarified,
    PreconditionFailed,
)
from gitcorrex.model.record import Record
from gitcorrex.model.session_events import (
    SESSION_COMPLETED_KIND,
    SESSION_PAUSED_KIND,
    SESSION_RESUMED_KIND,
    STEP_FAILED_KIND,
    STEP_STARTED_KIND,
    STEP_VERIFIED_KIND,
    TRANSITION_ADMITTED_KIND,
    SessionCompletedFields,
    SessionPausedFields,
    SessionResumedFields,
    StepFailedFields,
    StepStartedFields,
    StepVerifiedFields,
    TransitionAdmittedFields,
)
from gitcorrex.model.verification import (
    SETUP_KIND,
    VERIFICATION_KIND,
    SetupFields,
    VerificationFields,
)

SCHEMA_BASE = "https://git-correx.invalid/schemas/"


class Envelope(Record):
    """What every line carries (DESIGN §2), as written by schema version 1."""

    v: int
    id: str
    kind: str
    at: str
    subjects: list[str]
    session: str | None
    seq: int | None
    stage: str | None
    step: str | None
    state_key: str | None
    actor: Actor
    tool: ToolVersions


KIND_FIELDS: dict[str, type[BaseModel]] = {
    VERIFICATION_KIND: VerificationFields,
    SETUP_KIND: SetupFields,
    VALIDATED_KIND: PlanValidatedFields,
    AUTHORIZED_KIND: PlanAuthorizedFields,
    AUDITED_KIND: PlanRiskAuditedFields,
    ROUTED_KIND: PlanRoutedFields,
    LOCKED_KIND: PlanLockedFields,
    SESSION_STARTED_KIND: SessionStartedFields,
    GROUNDING_KIND: GroundingFields,
    ASSESSMENT_KIND: AssessmentFields,
    PRECONDITION_FAILED_KIND: PreconditionFailed,
    PRECONDITION_CLARIFIED_KIND: PreconditionClarified,
    STEP_STARTED_KIND: StepStartedFields,
    STEP_VERIFIED_KIND: StepVerifiedFields,
    STEP_FAILED_KIND: StepFailedFields,
    TRANSITION_ADMITTED_KIND: TransitionAdmittedFields,
    SESSION_PAUSED_KIND: SessionPausedFields,
    SESSION_RESUMED_KIND: SessionResumedFields,
    SESSION_COMPLETED_KIND: SessionCompletedFields,
    ARTIFACTS_KIND: ArtifactsChecked,
    BRIEF_GROUNDING_KIND: BriefGroundingChecked,
    ECHO_KIND: BriefEchoMismatch,
    STATIC_KIND: StaticAnalysisCompleted,
}


def event_schema(kind: str) -> dict[str, Any]:
    """The full line schema of one kind: envelope fields plus the kind's own fields."""
    fields_model = KIND_FIELDS[kind]
    schema = _merge(kind, fields_model).model_json_schema()
    schema["$id"] = f"{SCHEMA_BASE}{kind}.v1.json"
    schema["properties"]["v"]["const"] = 1
    schema["properties"]["kind"]["const"] = kind
    return schema


def _merge(kind: str, fields_model: type[BaseModel]) -> type[BaseModel]:
    """One model with the envelope's fields followed by the kind's fields."""
    definitions: dict[str, Any] = {}
    for model in (Envelope, fields_model):
        for name, info in model.model_fields.items():
            definitions[name] = (info.annotation, info)
    return create_model(kind, __config__=ConfigDict(extra="forbid"), **definitions)


def all_schemas() -> dict[str, dict[str, Any]]:
    """`<kind>.v1.json` → schema, for every kind this version writes with a typed model."""
    return {f"{kind}.v1.json": event_schema(kind) for kind in sorted(KIND_FIELDS)}
