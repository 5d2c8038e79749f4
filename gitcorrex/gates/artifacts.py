"""The produces gate: the artifacts a stage declares were supplied, and they parse.

Artifacts are JSON files named on the command line (`--artifact brief=out/brief.json`). A
brief (`brief`) and its restatement (`brief_echo`) must also be objects with a
`requirements` list of strings, since the echo gate compares exactly that. Every artifact
that could be read is stored as a blob and anchored by the event, so a replay can show
what was judged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitcorrex.errors import UsageError
from gitcorrex.git import Repository, write_blob
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.gates import ArtifactRecord, ArtifactsChecked, ArtifactStatus

BRIEF = "brief"
RESTATEMENT = "brief_echo"
SHAPED = (BRIEF, RESTATEMENT)


@dataclass(frozen=True)
class Artifact:
    """One supplied artifact as read: its record, and the parsed document when it parsed."""

    record: ArtifactRecord
    document: Any = None

    @property
    def usable(self) -> bool:
        return self.record.status is ArtifactStatus.SUPPLIED


def parse_artifact_options(options: tuple[str, ...], base: Path) -> dict[str, Path]:
    """`KIND=FILE` pairs (FILE relative to `base`); a malformed or repeated one is exit 2."""
    found: dict[str, Path] = {}
    for option in options:
        name, sep, file = option.partition("=")
        if not sep or not name or not file:
            raise UsageError(f"--artifact {option!r} is not KIND=FILE",
                             hint="e.g. --artifact brief=out/brief.json")
        if name in found:
            raise UsageError(f"artifact {name!r} is given twice", hint="give each kind once")
        found[name] = base / file
    return found


def read_artifacts(repo: Repository, files: dict[str, Path],
                   produces: list[str]) -> dict[str, Artifact]:
    """Every supplied artifact read and stored, plus a `missing` entry per declared one not
    supplied; declared ones first, in the stage's order."""
    names = [*produces, *(name for name in files if name not in produces)]
    return {name: _read(repo, name, files.get(name), name in produces) for name in names}


def check_produces(produces: list[str], artifacts: dict[str, Artifact]) -> ArtifactsChecked:
    """Passed when every artifact (declared or merely supplied) was read and parsed."""
    records = [artifact.record for artifact in artifacts.values()]
    return ArtifactsChecked(produces=list(produces), artifacts=records,
                            passed=all(artifact.usable for artifact in artifacts.values()))


def produces_feedback(checked: ArtifactsChecked) -> str:
    """What the producing stage must fix, one artifact per line."""
    lines = [f"artifact {r.name!r} {r.status.value}: {r.detail}" for r in checked.artifacts
             if r.status is not ArtifactStatus.SUPPLIED]
    return "\n".join(["Supply every artifact the stage produces, as valid JSON:", *lines])


def _read(repo: Repository, name: str, file: Path | None, declared: bool) -> Artifact:
    if file is None:
        return _record(name, declared, ArtifactStatus.MISSING, None, None,
                       f"not supplied: pass --artifact {name}=FILE")
    try:
        data = file.read_bytes()
    except OSError as exc:
        return _record(name, declared, ArtifactStatus.MISSING, None, None,
                       f"cannot read {file}: {exc.strerror or exc}")
    blob = write_blob(repo, data)
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return _record(name, declared, ArtifactStatus.NOT_JSON, blob, len(data),
                       f"{file} is not JSON: {exc}")
    problem = shape_problem(name, document)
    if problem is not None:
        return _record(name, declared, ArtifactStatus.BAD_SHAPE, blob, len(data), problem)
    return Artifact(_make(name, declared, ArtifactStatus.SUPPLIED, blob, len(data), ""),
                    document)


def shape_problem(name: str, document: Any) -> str | None:
    """Why a brief or restatement cannot be compared; None when it can (or is not one)."""
    if name not in SHAPED:
        return None
    if not isinstance(document, dict):
        return "expected a JSON object with a `requirements` list of strings"
    requirements = document.get("requirements")
    if not isinstance(requirements, list) or not all(isinstance(r, str) for r in requirements):
        return "`requirements` must be a list of strings"
    return None


def _record(name: str, declared: bool, status: ArtifactStatus, blob: str | None,
            size: int | None, detail: str) -> Artifact:
    return Artifact(_make(name, declared, status, blob, size, detail))


def _make(name: str, declared: bool, status: ArtifactStatus, blob: str | None,
          size: int | None, detail: str) -> ArtifactRecord:
    return ArtifactRecord(name=name, declared=declared, status=status, blob=blob, size=size,
                          detail=bound_text(detail))
