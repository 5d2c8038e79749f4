"""One readable line per event, shared by `show` and `replay`.

The verdict is read from the event's payload class (matched on its type); a known kind
whose fields do not fit its class prints as `unfit_text`, an unknown kind as its name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from gitcorrex.model.assessment import AssessmentFields
from gitcorrex.model.event_kinds import payload_or_problem
from gitcorrex.model.events import ReadActor, RecordedEvent
from gitcorrex.model.note_lines import LedgerEntry, written_entry
from gitcorrex.model.payload_problem import unfit_text
from gitcorrex.model.record import EventPayload
from gitcorrex.model.session_events import (
    SessionPausedFields,
    SessionResumedFields,
    StepAwaitingReviewFields,
    StepFailedFields,
    StepReviewedFields,
    StepStartedFields,
    StepVerifiedFields,
    TransitionAdmittedFields,
)
from gitcorrex.model.verification import (
    Result,
    SetupFields,
    StepChecksFields,
    VerificationFields,
)
from gitcorrex.review.gate_lines import gate_line
from gitcorrex.review.tree_status import writer_label

MARKS = {"pass": "✓", "fail": "✗", "unavailable": "?"}
Counts = Callable[[VerificationFields], bool]  # whether a verification ran the trusted profile


class Described(Protocol):
    """What a line needs besides its payload and who wrote it: a ledger entry or an event."""

    @property
    def at(self) -> str: ...
    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def session(self) -> str | None: ...
    @property
    def seq(self) -> int | None: ...
    @property
    def step(self) -> str | None: ...
    @property
    def state_key(self) -> str | None: ...


def describe_event(event: RecordedEvent, counts: Counts | None = None) -> str:
    """`<time> <kind-specific verdict> by <who> [session#seq] id <12>`; never raises.
    `counts` (`show`, which knows the tree) says whether a verification ran the tree's own
    profile: a pass that did not is `≠ pass under another profile`, never `✓`."""
    return describe_read(event, event.actor, *payload_or_problem(event), counts=counts)


def describe_entry(entry: LedgerEntry) -> str:
    """`describe_event` of a stored line: its payload read straight from the line, and of
    the envelope only who wrote it, from the same parse (replay describes 100,000 lines)."""
    payload, problem, writer = written_entry(entry)
    return describe_read(entry, writer, payload, problem)


def describe_read(event: Described, actor: ReadActor, payload: EventPayload | None,
                  problem: str | None, counts: Counts | None = None) -> str:
    """The line from the envelope of `event`, its writer and its payload (or why it does
    not fit its kind)."""
    parts = [event.at[:19] + "Z", _verdict(event, payload, problem, counts)]
    parts.append(f"by {writer_label(actor)}")
    if event.session is not None:
        parts.append(f"session {event.session}#{event.seq}")
    if event.state_key:
        parts.append(f"state {event.state_key[:12]}")
    parts.append(f"id {event.id[:12]}")
    return "  ".join(parts)


def _verdict(event: Described, payload: EventPayload | None, problem: str | None,
             counts: Counts | None) -> str:
    if problem is not None:
        return unfit_text(event.kind, problem)
    if payload is None:  # a kind this version does not know
        return event.kind
    if isinstance(payload, StepChecksFields):  # a step's own checks: never a pass of the tree
        names = ", ".join(command.name for command in payload.commands)
        return f"step checks, no build claim: {payload.result.value} ({names})"
    if isinstance(payload, VerificationFields):
        return _verification(payload, counts)
    return _payload_verdict(payload, event.step) or gate_line(payload) or event.kind


def _payload_verdict(payload: EventPayload, step: str | None) -> str | None:
    """The verdict of a setup, an assessment or a session transition."""
    match payload:
        case SetupFields(outcome=outcome, expectation=expectation):
            return f"setup {outcome} for {expectation}"
        case AssessmentFields():
            return _assessment(payload)
    details = _session_details(payload)
    if details is None:
        return None
    return " ".join([payload.KIND, *([step] if step else []),
                     *(f"{name}={value}" for name, value in details if value is not None)])


def _verification(fields: VerificationFields, counts: Counts | None = None) -> str:
    """`✓ pass test (test) reused abcdef012345 (pass by …)`; `≠ pass under another profile
    test (test)` when `counts` says it ran another profile than the tree's."""
    result = fields.result.value
    if counts is not None and not counts(fields) and fields.result is Result.PASS:
        result = "pass under another profile"
    text = f"{MARKS.get(result, '≠')} {result} {fields.expectation}"
    names = ", ".join(command.name for command in fields.commands)
    text += f" ({names})" if names else ""
    text += f" [{fields.reason.value}]" if fields.reason else ""
    return text + reused_text(fields)


def reused_text(fields: VerificationFields) -> str:
    """` reused abcdef012345 (pass by W on H, signed by P key K)`: whose pass a reuse cites
    and how it was trusted (`written in the clone that reused it`); "" for a run."""
    if not fields.reused_from:
        return ""
    trust = f" ({fields.reused_trust.describe()})" if fields.reused_trust else ""
    return f" reused {fields.reused_from[:12]}{trust}"


def _session_details(payload: EventPayload) -> list[tuple[str, object]] | None:
    """`step_failed S1 result=fail attempts=2 max_attempts=3 route=continue-fix`'s details
    (a None value is left out); None for a payload that is not a session transition."""
    match payload:
        case StepStartedFields():
            return []
        case StepVerifiedFields(build_claim=build_claim):
            return [("build_claim", build_claim)]
        case StepFailedFields():
            return [("result", payload.result), ("attempts", payload.attempts),
                    ("max_attempts", payload.max_attempts), ("route", payload.route.value)]
        case StepAwaitingReviewFields(attempts=attempts):
            return [("attempts", attempts)]
        case StepReviewedFields(decision=decision, name=name, email=email):
            return [("decision", decision.value), ("by", f"{name or '?'} <{email or '?'}>")]
        case SessionPausedFields(cause=cause):
            return [("cause", cause.value)]
        case SessionResumedFields(cause=cause, budget=budget):
            return [("cause", None if cause is None else cause.value), ("budget", budget)]
        case TransitionAdmittedFields(transition=transition, from_revision=revision):
            return [("transition", transition.value), ("from_revision", revision)]
    return None


def _assessment(fields: AssessmentFields) -> str:
    """`✗ BLOCK PATH_OUTSIDE_MANIFEST assess write docs/x.md (+2 more)`."""
    verdict = fields.verdict.value
    text = f"{'✓' if verdict == 'ALLOW' else '✗'} {verdict} {fields.rule.value} " \
           f"{fields.origin} {fields.action}"
    if fields.paths:  # the first path that decided, for a BLOCK the first blocked one
        first = next((p for p in fields.paths if p.rule is fields.rule), fields.paths[0])
        more = len(fields.paths) - 1 + fields.paths_omitted
        text += f" {first.path}" + (f" (+{more} more)" if more else "")
    return text
