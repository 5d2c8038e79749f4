"""The one base of every record we write or return: immutable, and strict about keys.

`frozen` because a recorded fact or a result never changes after it is made; `extra="forbid"`
because a misspelt key must fail where it is written, not vanish. Schema builds are deferred
to first use: a command imports many models and validates few (the status fast path).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """Frozen, no unknown keys; subclasses add only what differs (e.g. `strict=True`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class EventPayload(Record):
    """The kind-specific fields of one ledger event; `KIND` is its `kind` on the line.

    Each payload class declares its kind once; the set of known kinds and the union the
    ledger reads lines into are derived from these classes (`model/event_kinds.py`).
    """

    KIND: ClassVar[str]
    OMIT_WHEN_NONE: ClassVar[frozenset[str]] = frozenset()  # absent from the line when None

    def line_fields(self) -> dict[str, Any]:
        """The fields as written on the line: JSON values; `OMIT_WHEN_NONE` fields that are
        None are left out (they were added later: older lines stay byte-equal)."""
        unset = {name for name in self.OMIT_WHEN_NONE if getattr(self, name) is None}
        return self.model_dump(mode="json", exclude=unset)


class SparsePayload(EventPayload):
    """A payload written without any None value, nested ones included."""

    def line_fields(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)
