"""`verify --reuse`: an earlier pass counts only for the same tree and the same commands."""

from __future__ import annotations

from collections.abc import Iterable

from gitcorrex.model.event_kinds import payload_of
from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.record import EventPayload
from gitcorrex.model.verification import Result, VerificationFields
from gitcorrex.profiles.selection import ResolvedCommand


def find_reusable_pass(events: Iterable[RecordedEvent], *, state_key: str,
                       commands: list[ResolvedCommand]) -> RecordedEvent | None:
    """The newest pass on `state_key` whose command digests equal ours, in order; or None."""
    wanted = [command.digest for command in commands]
    candidates = [
        event for event in events
        if event.kind == VerificationFields.KIND and event.state_key == state_key
        and _is_pass_of(payload_of(event), wanted)
    ]
    return max(candidates, key=time_order, default=None)


def original_of(event: RecordedEvent) -> str:
    """Cite the observation that actually ran, not another reuse of it."""
    payload = payload_of(event)
    if isinstance(payload, VerificationFields) and payload.reused_from is not None:
        return payload.reused_from
    return event.id


def _is_pass_of(payload: EventPayload | None, wanted: list[str]) -> bool:
    """A readable pass of exactly these commands (a line that does not fit is no pass)."""
    return isinstance(payload, VerificationFields) and payload.result is Result.PASS \
        and [command.digest for command in payload.commands] == wanted
