"""The event envelope shared by every ledger line (DESIGN §2, schema version 1).

Writers build a strict payload model per kind; readers parse lines into `RecordedEvent`,
which keeps unknown *fields* of a known version (so newer writers do not break older
readers) while the ledger reports unknown kinds and versions as problems.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    SerializerFunctionWrapHandler,
    StringConstraints,
    model_serializer,
)

from gitcorrex.model.event_line import SCHEMA_VERSION as SCHEMA_VERSION  # one definition
from gitcorrex.model.provenance import Provenance as Provenance  # callers import it here
from gitcorrex.model.record import Record
from gitcorrex.model.session_object import SESSION_ID_PATTERN
from gitcorrex.model.session_object import git_blob_oid as git_blob_oid  # callers import it here
from gitcorrex.model.session_object import session_object_bytes as session_object_bytes
from gitcorrex.model.session_object import session_object_oid as session_object_oid

Oid = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}([0-9a-f]{24})?$")]
SessionId = Annotated[str, StringConstraints(pattern=SESSION_ID_PATTERN)]


class ReadActor(BaseModel):
    """Who recorded a fact, as a line read back carries it: git identity (None when unset),
    host, the writing process's run id, and the name of the runtime it ran under
    (`CORREX_RUNTIME`; absent when unnamed). A key a newer writer added is skipped, not a
    reason to set the line aside (STYLE: readers tolerate unknown fields of a version)."""

    model_config = ConfigDict(frozen=True, extra="ignore", defer_build=True)

    name: str | None
    email: str | None
    host: str
    runtime: str
    runtime_name: str | None = None

    @model_serializer(mode="wrap")
    def _as_written(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Dumped as the line holds it: `runtime_name` absent, not null, when unnamed."""
        data: dict[str, Any] = handler(self)
        if data.get("runtime_name") is None:
            data.pop("runtime_name", None)
        return data


class Actor(ReadActor, Record):
    """Who recorded a fact: git identity (None when unset), host, this process's run id, and
    the runtime's name when its orchestrator gave one (`CORREX_RUNTIME`)."""

    # as a writer makes it: strict like every record written (ReadActor reads it back)
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class ReadToolVersions(BaseModel):
    """Which software recorded a fact, so a reader can weigh old evidence; unknown keys of
    a line read back are skipped, as for `ReadActor`."""

    model_config = ConfigDict(frozen=True, extra="ignore", defer_build=True)

    correx: str
    git: str
    libgit2: str


class ToolVersions(ReadToolVersions, Record):
    """Which software recorded a fact, so a reader can weigh old evidence."""

    # as a writer makes it: strict like every record written (ReadToolVersions reads it)
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class RecordedEvent(BaseModel):
    """One ledger line as read back. Kind-specific fields stay available as extras."""

    model_config = ConfigDict(frozen=True, extra="allow")

    v: int
    id: str
    kind: str
    at: str
    subjects: list[str]
    session: str | None = None
    seq: int | None = None
    stage: str | None = None
    step: str | None = None
    state_key: str | None = None
    actor: ReadActor
    tool: ReadToolVersions
