"""Every event kind this version knows, derived from the payload classes (each declares its
`KIND` once): what the ledger accepts, what its schemas cover, what a line parses into.
"""

from __future__ import annotations

from gitcorrex.model.assessment import AssessmentFields
from gitcorrex.model.gates import (
    ArtifactsChecked,
    BriefEchoMismatch,
    BriefGroundingChecked,
    StaticAnalysisCompleted,
)
from gitcorrex.model.grounding import GroundingFields
from gitcorrex.model.plan_events import (
    PlanAuthorizedFields,
    PlanLockedFields,
    PlanRiskAuditedFields,
    PlanRoutedFields,
    PlanValidatedFields,
    SessionStartedFields,
)
from gitcorrex.model.preconditions import PreconditionClarified, PreconditionFailed
from gitcorrex.model.record import EventPayload
from gitcorrex.model.session_events import (
    SessionCompletedFields,
    SessionPausedFields,
    SessionResumedFields,
    StepFailedFields,
    StepStartedFields,
    StepVerifiedFields,
    TransitionAdmittedFields,
)
from gitcorrex.model.verification import SetupFields, VerificationFields

PAYLOAD_TYPES: tuple[type[EventPayload], ...] = (
    VerificationFields,
    SetupFields,
    PlanValidatedFields,
    PlanAuthorizedFields,
    PlanRiskAuditedFields,
    PlanRoutedFields,
    PlanLockedFields,
    SessionStartedFields,
    GroundingFields,
    AssessmentFields,
    PreconditionFailed,
    PreconditionClarified,
    StepStartedFields,
    StepVerifiedFields,
    StepFailedFields,
    TransitionAdmittedFields,
    SessionPausedFields,
    SessionResumedFields,
    SessionCompletedFields,
    ArtifactsChecked,
    BriefGroundingChecked,
    BriefEchoMismatch,
    StaticAnalysisCompleted,
)

PAYLOAD_BY_KIND: dict[str, type[EventPayload]] = {p.KIND: p for p in PAYLOAD_TYPES}
KNOWN_KINDS = frozenset(PAYLOAD_BY_KIND)
