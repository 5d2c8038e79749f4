"""Which environment an observation ran in, as one comparable value.

Readers that group observations of one tree by environment (`log`, `report`, the flaky
marker) and those that decide reuse ask this one function, so "same environment" means one
thing everywhere. An observation recorded before fingerprints has no `environment`: its
digest is None, an unknown environment that equals no other.
"""

from __future__ import annotations

from typing import Any


def environment_digest(event: Any) -> str | None:
    """The fingerprint digest of a verification (a RecordedEvent, whose kind fields are its
    extras; a typed payload; or a payload mapping); None when it carries none."""
    environment = _field(getattr(event, "payload", event), "environment")
    digest = _field(environment, "digest")
    return digest if isinstance(digest, str) else None


def _field(value: Any, name: str) -> Any:
    if isinstance(value, dict):
        return value.get(name)
    return getattr(value, name, None)
