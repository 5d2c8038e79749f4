"""Canonical JSON: the same fact always serializes to the same bytes.

That property is what makes `cat_sort_uniq` merges of the ledger lossless and idempotent,
and what lets an event's `id` be a hash of its own content.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any


def canonical_json(value: Any) -> str:
    """Sorted keys, compact separators, ASCII only; floats are refused by the models."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)


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
