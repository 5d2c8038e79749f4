"""Every event kind this version knows, derived from the payload classes (each declares its
`KIND` once): what the ledger accepts, what its schemas cover, what a line parses into.
"""

from __future__ import annotations

from pydantic import ValidationError

from gitcorrex.model.assessment import AssessmentFields
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.gates import (
    ArtifactsChecked,
    BriefEchoMismatch,
    BriefGroundingChecked,
    StaticAnalysisCompleted,
)
from gitcorrex.model.grounding import GroundingFields
from gitcorrex.model.payload_lines import line_class
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


def payload_of(event: RecordedEvent) -> EventPayload | None:
    """An event's kind fields read into its kind's payload class, to match on; None for
    an unknown kind or fields that do not fit it (nothing unreadable is used)."""
    if event.kind not in KNOWN_KINDS:
        return None
    try:
        return line_class(PAYLOAD_BY_KIND[event.kind]).model_validate(
            event.model_dump(mode="json"))
    except ValidationError:
        return None
