"""What the fold reads: a RecordedEvent inside a compare-and-swap, or a `LineEvent` made
from the stored line with `json.loads` alone when a long session is folded for `status`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from gitcorrex.model.note_lines import ENVELOPE_KEYS


class FoldEvent(Protocol):
    """What the fold reads of an event: a RecordedEvent, or a LineEvent (cheaper to make)."""

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
    @property
    def model_extra(self) -> dict[str, Any] | None: ...

    def field(self, name: str) -> object: ...


@dataclass(frozen=True)
class LineEvent:
    """A stored line read with `json.loads` alone: the envelope fields the fold needs and
    the kind fields as `model_extra`. Parsing the actor and tool models of 5,000 events
    would cost more than the whole fold."""

    id: str
    kind: str
    session: str | None
    seq: int | None
    step: str | None
    state_key: str | None
    model_extra: dict[str, Any]

    @classmethod
    def parse(cls, line: bytes) -> LineEvent:
        data = json.loads(line)
        extra = {k: v for k, v in data.items() if k not in ENVELOPE_KEYS}
        return cls(data["id"], data["kind"], data.get("session"), data.get("seq"),
                   data.get("step"), data.get("state_key"), extra)

    def field(self, name: str) -> object:
        return self.model_extra.get(name)
