"""The one base of every record we write or return: immutable, and strict about keys.

`frozen` because a recorded fact or a result never changes after it is made; `extra="forbid"`
because a misspelt key must fail where it is written, not vanish. Schema builds are deferred
to first use: a command imports many models and validates few (the status fast path).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """Frozen, no unknown keys; subclasses add only what differs (e.g. `strict=True`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
