"""Canonical JSON: the same fact always serializes to the same bytes.

That property is what makes `cat_sort_uniq` merges of the ledger lossless and idempotent,
and what lets an event's `id` be a hash of its own content.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


def canonical_json(value: Any) -> str:
    """Sorted keys, compact separators, ASCII only; floats are refused by the models.

    A path git hands us may hold bytes that are not UTF-8; they travel as lone surrogates
    (surrogateescape), which JSON readers reject. They are written as the four characters
    `\\xNN` instead, so every line stays valid JSON.
    """
    text = _dumps(value)
    if "\\ud" in text:  # rare: only then look for lone surrogates in the values
        text = _dumps(_without_surrogates(value))
    return text


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)


def ledger_text(text: str) -> str:
    """`text` as a ledger line holds it: a lone surrogate (a byte of a non-UTF-8 path) spelled
    `\\xNN`. For values that are compared before they are written (an acceptance's key)."""
    return _SURROGATE.sub(_spell, text)


def _without_surrogates(value: Any) -> Any:
    """A copy with every lone surrogate (a Python str holds no pairs) spelled as text."""
    if isinstance(value, str):
        return ledger_text(value)
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_without_surrogates(item) for item in value]
    return value


def _spell(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def content_id(fields: Mapping[str, Any]) -> str:
    """sha256 of the canonical line without its `id`: the event's identity."""
    body = {key: value for key, value in fields.items() if key != "id"}
    return hashlib.sha256(canonical_json(body).encode("ascii")).hexdigest()


def format_instant(moment: datetime) -> str:
    """Fixed-width RFC 3339 UTC with microseconds, so string order is time order."""
    if moment.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware")
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def bound_text(text: str, limit: int = 1024) -> str:
    """Keep the *end* of outside text within `limit` characters (the end holds the error)."""
    if len(text) <= limit:
        return text
    marker = "…"
    return marker + text[-(limit - len(marker)):]
