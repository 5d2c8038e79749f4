"""Which environment an observation ran in, as one comparable value: the digest of its
environment fingerprint.

An observation records `environment` (an object whose `digest` summarises the whole
fingerprint: interpreter, platform, declared variables hashed). Lines written before the
fingerprint existed carry none: their environment is unknown, never "the same as" another.
Readers that group observations by environment (the flaky marker of `log` and `report`,
reuse, per-environment verdicts) ask this one function, so the field is read one way.
"""

from __future__ import annotations


def environment_digest(event: object) -> str | None:
    """The `environment.digest` of an observation — a line read back (`RecordedEvent`, whose
    kind fields are extras) or a payload that declares the field — or None when it records
    no environment (an older line) or the value is not a non-empty string."""
    environment = getattr(event, "environment", None)
    if isinstance(environment, dict):
        digest = environment.get("digest")
    else:
        digest = getattr(environment, "digest", None)
    return digest if isinstance(digest, str) and digest else None
