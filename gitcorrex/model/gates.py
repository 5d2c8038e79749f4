"""Kind-specific fields of the post-stage gates: artifacts, brief grounding, brief echo,
static analysis.

`git correx gate` runs them in a fixed order and stops at the first that fails; each is
recorded on the state tree it judged, so a replay shows what was judged (the artifacts are
anchored blobs) and what was found, without running or reading anything again.
"""

from __future__ import annotations

from enum import Enum

from pydantic import Field

from gitcorrex.model.environment import EnvironmentPrint
from gitcorrex.model.events import Oid
from gitcorrex.model.record import EventPayload, Record
from gitcorrex.model.verification import OutputEvidence, StopReason


class ArtifactStatus(str, Enum):
    """`supplied` parsed (and, for a brief, has its shape); the others say why not."""

    SUPPLIED = "supplied"
    MISSING = "missing"
    NOT_JSON = "not_json"
    BAD_SHAPE = "bad_shape"


class ArtifactRecord(Record):
    """One artifact as the gate saw it; `blob` holds its exact bytes (None when unread)."""

    name: str
    declared: bool
    status: ArtifactStatus
    blob: Oid | None
    size: int | None
    detail: str


class ArtifactsChecked(EventPayload):
    """`stage_artifacts_checked`: the stage's `produces` against what was supplied."""

    KIND = "stage_artifacts_checked"

    produces: list[str]
    artifacts: list[ArtifactRecord]
    passed: bool


class ReferenceStatus(str, Enum):
    """What the state tree proves: present, absent, or unknown (inside a submodule)."""

    PRESENT = "present"
    ABSENT = "absent"
    UNKNOWN = "unknown"


class GroundingReference(Record):
    """One file reference: the path, where in which artifact it was written, its status."""

    path: str = Field(max_length=4096)
    artifact: str
    where: str = Field(max_length=1024)
    status: ReferenceStatus


class BriefGroundingChecked(EventPayload):
    """`brief_grounding_checked`: every reference of the judged artifacts and its status."""

    KIND = "brief_grounding_checked"

    artifacts: dict[str, Oid]
    references: list[GroundingReference]
    references_omitted: int
    missing: int
    passed: bool


class Coverage(Record):
    """The best token-set Jaccard of one requirement, as an exact fraction shared/union;
    `best` is the index of the restated requirement that achieves it (None: none did)."""

    index: int
    requirement: str = Field(max_length=1024)
    best: int | None
    shared: int
    union: int


class BriefEchoMismatch(EventPayload):
    """`brief_echo_mismatch`: requirements the restatement dropped, files it made up.

    `threshold` is the coverage a requirement needed, as written in the profile (text: no
    floats in the ledger); symbols are reported only, they never make a mismatch.
    """

    KIND = "brief_echo_mismatch"

    brief: Oid
    restatement: Oid
    threshold: str
    requirements: int
    restated: int
    dropped: list[Coverage]
    hallucinated_files: list[str]
    symbols: list[str]


class StaticFinding(Record):
    """One `path:line[:col]: message` line of a command's output."""

    path: str = Field(max_length=1024)
    line: int
    column: int | None
    message: str = Field(max_length=1024)


class StaticCommandRecord(Record):
    """One static-analysis command: a profile command's `name` (None for a command line
    written in the stage) and how it ended; clean = exit 0."""

    name: str | None
    argv: list[str]
    exit_code: int | None
    signal: int | None
    stop_reason: StopReason
    duration_ms: int
    output: OutputEvidence
    findings: list[StaticFinding]
    findings_omitted: int


class StaticAnalysisCompleted(EventPayload):
    """`static_analysis_completed`: every command of the stage's `static_analysis`.

    `skipped` is "no_workspace" for a bare repository (nothing ran, nothing blocks);
    `state_after` differs from the envelope's state key when a command changed the work tree.
    """

    KIND = "static_analysis_completed"
    OMIT_WHEN_NONE = frozenset({"environment"})

    commands: list[StaticCommandRecord]
    clean: bool
    skipped: str | None
    state_after: Oid | None
    profile: Oid | None
    # what ran the commands (model/environment.py); absent before fingerprints and when
    # nothing ran (a bare repository): such a result is never reused
    environment: EnvironmentPrint | None = None
