"""Every event kind this version knows, derived from the payload classes (each declares its
`KIND` once): what the ledger accepts, what its schemas cover, what a line parses into.
"""

from __future__ import annotations

from pydantic import ValidationError

from gitcorrex.model import (
    adoption,
    assessment,
    gates,
    grounding,
    plan_events,
    preconditions,
    session_events,
    test_integrity,
    verification,
)
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.payload_lines import READ_EXTRA
from gitcorrex.model.payload_problem import payload_problem
from gitcorrex.model.record import EventPayload

PAYLOAD_TYPES: tuple[type[EventPayload], ...] = (
    verification.VerificationFields,
    verification.StepChecksFields,
    verification.SetupFields,
    plan_events.PlanValidatedFields,
    plan_events.PlanAuthorizedFields,
    plan_events.PlanRiskAuditedFields,
    plan_events.PlanRoutedFields,
    plan_events.PlanLockedFields,
    plan_events.SessionStartedFields,
    grounding.GroundingFields,
    assessment.AssessmentFields,
    preconditions.PreconditionFailed,
    preconditions.PreconditionClarified,
    session_events.StepStartedFields,
    session_events.StepVerifiedFields,
    session_events.StepFailedFields,
    session_events.StepAwaitingReviewFields,
    session_events.StepReviewedFields,
    session_events.TransitionAdmittedFields,
    session_events.SessionPausedFields,
    session_events.SessionResumedFields,
    session_events.SessionCompletedFields,
    adoption.ChangesAdoptedFields,
    gates.ArtifactsChecked,
    gates.BriefGroundingChecked,
    gates.BriefEchoMismatch,
    gates.StaticAnalysisCompleted,
    test_integrity.WeakeningFound,
    test_integrity.WeakeningsAccepted,
)

PAYLOAD_BY_KIND: dict[str, type[EventPayload]] = {p.KIND: p for p in PAYLOAD_TYPES}
KNOWN_KINDS = frozenset(PAYLOAD_BY_KIND)


def payload_of(event: RecordedEvent) -> EventPayload | None:
    """An event's kind fields read into its kind's payload class, to match on; None for
    an unknown kind or fields that do not fit it (nothing unreadable is used)."""
    return payload_or_problem(event)[0]


def payload_or_problem(event: RecordedEvent) -> tuple[EventPayload | None, str | None]:
    """(payload, None); (None, "where: message") when a known kind's fields do not fit its
    class, as `typed_events` words it; (None, None) for a kind this version does not know."""
    if event.kind not in KNOWN_KINDS:
        return None, None
    try:
        return PAYLOAD_BY_KIND[event.kind].model_validate(
            event.model_dump(mode="json"), extra=READ_EXTRA), None
    except ValidationError as exc:
        return None, payload_problem(event.kind, exc)
