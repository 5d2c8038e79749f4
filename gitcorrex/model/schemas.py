"""JSON Schemas of the events we write, generated from the models.

Other tools (CI dashboards, other languages) read the ledger; the committed schemas in
`schemas/` are their contract, and a test fails when they go stale against the models.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, create_model

from gitcorrex.model.event_kinds import PAYLOAD_BY_KIND
from gitcorrex.model.events import Actor, ToolVersions
from gitcorrex.model.record import Record

SCHEMA_BASE = "https://git-correx.invalid/schemas/"


class Envelope(Record):
    """What every line carries (DESIGN §2), as written by schema version 1."""

    v: int
    id: str
    kind: str
    at: str
    subjects: list[str]
    session: str | None
    seq: int | None
    stage: str | None
    step: str | None
    state_key: str | None
    actor: Actor
    tool: ToolVersions


KIND_FIELDS: dict[str, type[BaseModel]] = dict(PAYLOAD_BY_KIND)


def event_schema(kind: str) -> dict[str, Any]:
    """The full line schema of one kind: envelope fields plus the kind's own fields."""
    fields_model = KIND_FIELDS[kind]
    schema = _merge(kind, fields_model).model_json_schema()
    schema["$id"] = f"{SCHEMA_BASE}{kind}.v1.json"
    schema["properties"]["v"]["const"] = 1
    schema["properties"]["kind"]["const"] = kind
    return schema


def _merge(kind: str, fields_model: type[BaseModel]) -> type[BaseModel]:
    """One model with the envelope's fields followed by the kind's fields."""
    definitions: dict[str, Any] = {}
    for model in (Envelope, fields_model):
        for name, info in model.model_fields.items():
            definitions[name] = (info.annotation, info)
    return create_model(kind, __config__=ConfigDict(extra="forbid"), **definitions)


KIND_NAMES_DOC = '''\"\"\"The known kinds' names alone, generated from the payload classes by
`python schemas/generate.py` (tests/model/test_schemas.py fails when it is stale).

The ledger checks every line's kind against them; importing the classes themselves costs
every model (~15 ms CPU idle, ~40 ms loaded), which the read paths that scan lines without
parsing payloads (`log`, `replay --json`) need not pay.
\"\"\"
'''


def kind_names_source() -> str:
    """The text of `gitcorrex/model/kind_names.py`."""
    names = "".join(f'    "{kind}",\n' for kind in sorted(KIND_FIELDS))
    return (f"{KIND_NAMES_DOC}\nfrom __future__ import annotations\n\n"
            f"KNOWN_KINDS = frozenset({{\n{names}}})\n")


def all_schemas() -> dict[str, dict[str, Any]]:
    """`<kind>.v1.json` → schema, for every kind this version writes with a typed model."""
    return {f"{kind}.v1.json": event_schema(kind) for kind in sorted(KIND_FIELDS)}
