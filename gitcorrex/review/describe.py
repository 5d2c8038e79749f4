"""One readable line per event, shared by `show` and `replay`."""

from __future__ import annotations

from gitcorrex.model.assessment import AssessmentFields
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.routes import read_route
from gitcorrex.model.verification import (
    SetupFields,
    VerificationFields,
)
from gitcorrex.review.gate_lines import GATE_LINES

MARKS = {"pass": "✓", "fail": "✗", "unavailable": "?"}


def describe_event(event: RecordedEvent) -> str:
    """`<time> <kind-specific verdict> by <who> [session#seq] id <12>`; never raises."""
    parts = [event.at[:19] + "Z", _verdict(event)]
    who = event.actor.email or event.actor.name or event.actor.host
    parts.append(f"by {who}")
    if event.session is not None:
        parts.append(f"session {event.session}#{event.seq}")
    if event.state_key:
        parts.append(f"state {event.state_key[:12]}")
    parts.append(f"id {event.id[:12]}")
    return "  ".join(parts)


def _verdict(event: RecordedEvent) -> str:
    if event.kind == VerificationFields.KIND:
        result = str(event.field("result"))
        text = f"{MARKS.get(result, '?')} {result} {event.field('expectation')}"
        names = _command_names(event)
        reason = event.field("reason")
        reused = event.field("reused_from")
        text += f" ({names})" if names else ""
        text += f" [{reason}]" if reason else ""
        return text + (f" reused {str(reused)[:12]}" if reused else "")
    if event.kind == SetupFields.KIND:
        return f"setup {event.field('outcome')} for {event.field('expectation')}"
    if event.kind == AssessmentFields.KIND:
        return _assessment(event)
    if event.kind in SESSION_DETAILS:
        return _session_event(event)
    if event.kind in GATE_LINES:
        return GATE_LINES[event.kind](event)
    return event.kind


SESSION_DETAILS = {"step_started": (), "step_verified": ("build_claim",),
                   "step_failed": ("result", "attempts", "max_attempts", "route"),
                   "session_paused": ("cause",), "session_resumed": ("cause", "budget"),
                   "transition_admitted": ("transition", "from_revision")}


def _session_event(event: RecordedEvent) -> str:
    """`step_failed S1 result=fail attempts=2 max_attempts=3 route=continue-fix`."""
    details = [f"{name}={_detail(event, name)}" for name in SESSION_DETAILS[event.kind]
               if event.field(name) is not None]
    return " ".join([event.kind, *([event.step] if event.step else []), *details])


def _detail(event: RecordedEvent, name: str) -> object:
    """A field as this version names it: an old `route=escalate` reads `stop-escalate`."""
    value = event.field(name)
    return read_route(value) if name == "route" else value


def _assessment(event: RecordedEvent) -> str:
    """`✗ BLOCK PATH_OUTSIDE_MANIFEST assess write docs/x.md (+2 more)`."""
    verdict = str(event.field("verdict"))
    text = f"{'✓' if verdict == 'ALLOW' else '✗'} {verdict} {event.field('rule')} " \
           f"{event.field('origin')} {event.field('action')}"
    raw = event.field("paths")
    paths = [p for p in raw if isinstance(p, dict)] if isinstance(raw, list) else []
    if paths:  # the first path that decided, for a BLOCK the first blocked one
        first = next((p for p in paths if p.get("rule") == event.field("rule")), paths[0])
        omitted = event.field("paths_omitted")
        more = len(paths) - 1 + (omitted if isinstance(omitted, int) else 0)
        text += f" {first.get('path')}" + (f" (+{more} more)" if more else "")
    return text


def _command_names(event: RecordedEvent) -> str:
    commands = event.field("commands")
    if not isinstance(commands, list):
        return ""
    return ", ".join(str(entry.get("name")) for entry in commands if isinstance(entry, dict))
