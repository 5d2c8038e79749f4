"""Which environment an observation ran in, as one comparable value: the digest of its
environment fingerprint.

An observation records `environment` (an object whose `digest` summarises the whole
fingerprint: programs, interpreter, platform, declared variables hashed). Lines written
before the fingerprint existed carry none: their environment is unknown, never "the same
as" another. Readers that group observations of one tree by environment (`log`, `report`,
the flaky marker) and those that decide reuse ask this one function, so "same environment"
means one thing everywhere. No pydantic here: the plain verify path computes the digest it
records with `fingerprint_digest`.
"""

from __future__ import annotations

import hashlib
from typing import Any

from gitcorrex.model.canonical import canonical_json


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


def fingerprint_digest(components: dict[str, Any]) -> str:
    """The digest of a fingerprint's components (every field but `digest`)."""
    body = {key: value for key, value in components.items() if key != "digest"}
    return hashlib.sha256(canonical_json(body).encode("ascii")).hexdigest()
