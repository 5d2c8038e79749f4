"""Every event kind this version knows, derived from the payload classes (each declares its
`KIND` once): what the ledger accepts, what its schemas cover, what a line parses into.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, Union

from pydantic import Field, TypeAdapter, ValidationError

from gitcorrex.model import (
    assessment,
    gates,
    grounding,
    plan_events,
    preconditions,
    session_events,
    verification,
)
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.payload_problem import payload_problem
from gitcorrex.model.record import EventPayload

PAYLOAD_TYPES: tuple[type[EventPayload], ...] = (
    verification.VerificationFields,
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
    session_events.TransitionAdmittedFields,
    session_events.SessionPausedFields,
    session_events.SessionResumedFields,
    session_events.SessionCompletedFields,
    gates.ArtifactsChecked,
    gates.BriefGroundingChecked,
    gates.BriefEchoMismatch,
    gates.StaticAnalysisCompleted,
)

PAYLOAD_BY_KIND: dict[str, type[EventPayload]] = {p.KIND: p for p in PAYLOAD_TYPES}
KNOWN_KINDS = frozenset(PAYLOAD_BY_KIND)

# The envelope's keys as a payload read from a whole line sees them: accepted, not checked
# (the ledger's scan checked them already), never dumped with the payload.
_ENVELOPE: dict[str, Any] = {"v": int, "id": str, "at": str, "subjects": Any,
                             "session": Any, "seq": Any, "stage": Any, "step": Any,
                             "state_key": Any, "actor": Any, "tool": Any}


@cache
def line_class(payload: type[EventPayload]) -> type[EventPayload]:
    """The class a whole line of `payload`'s kind is read into: the payload class itself
    (so readers match on it), taking the envelope's keys and the `kind` tag beside it."""
    namespace: dict[str, Any] = {
        "__module__": __name__,
        "__annotations__": {"kind": Literal[payload.KIND], **_ENVELOPE},
        "kind": Field(exclude=True),
        **{name: Field(default=None, exclude=True) for name in _ENVELOPE},
    }
    return type(f"{payload.__name__}Line", (payload,), namespace)


@cache
def payload_reader(kinds: frozenset[str]) -> TypeAdapter[EventPayload]:
    """Lines of `kinds` → their payload classes: a union discriminated on `kind`, built for
    just the kinds a reader asks for (building every model costs more than a small read)."""
    members = tuple(line_class(PAYLOAD_BY_KIND[kind]) for kind in sorted(kinds))
    if len(members) == 1:
        return TypeAdapter(members[0])
    union = Annotated[Union[members], Field(discriminator="kind")]  # type: ignore[valid-type]  # noqa: UP007
    return TypeAdapter(union)


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
        return payload_reader(frozenset({event.kind})).validate_python(
            event.model_dump(mode="json")), None
    except ValidationError as exc:
        return None, payload_problem(event.kind, exc)
