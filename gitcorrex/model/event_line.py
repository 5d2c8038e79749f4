"""The canonical ledger line, written from plain JSON values: no pydantic on this path.

Every writer builds its line here: the model path hands it `payload.line_fields()`, the
plain `verify` path (`verify/plain.py`) the same fields as plain data, so the two can only
differ in what they pass, never in how it is serialized (tests compare the bytes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gitcorrex.model.canonical import canonical_json, content_id

SCHEMA_VERSION = 1
ENVELOPE_KEYS = frozenset(
    {"v", "id", "kind", "at", "subjects", "session", "seq", "stage", "step", "state_key"}
    | {"actor", "tool"}
)
_SCALARS = frozenset({str, int, bool, type(None)})


def event_line(fields: Mapping[str, Any], envelope: Mapping[str, Any]) -> str:
    """The canonical line: envelope merged with the kind fields, `id` = hash of the rest."""
    clash = ENVELOPE_KEYS & fields.keys()
    if clash:
        raise ValueError(f"{envelope.get('kind')} fields may not use envelope keys {sorted(clash)}")
    check_json_ready(fields, str(envelope.get("kind")))
    body = {**fields, **envelope}
    body["id"] = content_id(body)
    return canonical_json(body)


def check_json_ready(value: Any, where: str) -> None:
    """Only JSON scalars (no floats: they do not serialize canonically), lists and objects."""
    kind = type(value)
    if kind in _SCALARS or isinstance(value, (str, int)):  # bool and str enums included
        return
    if kind is list or kind is tuple:
        for index, item in enumerate(value):
            if type(item) not in _SCALARS:
                check_json_ready(item, f"{where}[{index}]")
    elif isinstance(value, Mapping) and all(type(key) is str for key in value):
        for key, item in value.items():
            if type(item) not in _SCALARS:
                check_json_ready(item, f"{where}.{key}")
    else:
        raise ValueError(f"{where}: {kind.__name__} is not allowed in an event field")
