"""The verdict part of a `show`/`replay` line for gate facts and precondition signals.

Read only from the recorded fields, matched on their payload classes (never recomputed):
a replay shows what was judged and what was found, exactly as recorded.
"""

from __future__ import annotations

from gitcorrex.model.gates import (
    ArtifactsChecked,
    BriefEchoMismatch,
    BriefGroundingChecked,
    ReferenceStatus,
    StaticAnalysisCompleted,
)
from gitcorrex.model.preconditions import PreconditionFailed
from gitcorrex.model.record import EventPayload

GATE_KINDS = frozenset({ArtifactsChecked.KIND, BriefGroundingChecked.KIND,
                        BriefEchoMismatch.KIND, StaticAnalysisCompleted.KIND,
                        PreconditionFailed.KIND})


def _mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def gate_line(payload: EventPayload) -> str | None:
    """The line of a gate fact or a precondition signal; None for any other payload."""
    match payload:
        case ArtifactsChecked():
            return _artifacts(payload)
        case BriefGroundingChecked():
            return _grounding(payload)
        case BriefEchoMismatch(dropped=dropped, hallucinated_files=files):
            return f"✗ brief echo mismatch: {len(dropped)} dropped requirement(s), " \
                   f"{len(files)} unknown file(s)"
        case StaticAnalysisCompleted():
            return _static(payload)
        case PreconditionFailed(path=path, attempts=attempts, source=source, named_by=by):
            return f"✗ precondition failed: {path} ({attempts} attempts; {source.value} {by})"
    return None


def _artifacts(fields: ArtifactsChecked) -> str:
    """`✓ artifacts brief=supplied`."""
    found = " ".join(f"{a.name}={a.status.value}" for a in fields.artifacts)
    return f"{_mark(fields.passed)} artifacts {found or '(none)'}"


def _grounding(fields: BriefGroundingChecked) -> str:
    """`✗ brief grounding: 1 of 3 reference(s) missing: src/nope.py`."""
    missing = [r.path for r in fields.references if r.status is ReferenceStatus.ABSENT]
    text = f"{_mark(fields.passed)} brief grounding: {fields.missing} " \
           f"of {len(fields.references)} reference(s) missing"
    return text + (f": {', '.join(missing[:3])}" if missing else "")


def _static(fields: StaticAnalysisCompleted) -> str:
    """`✗ static analysis: lint=1, true=0`, or the no-op of a bare repository."""
    if fields.skipped:
        return f"✓ static analysis skipped ({fields.skipped})"
    parts = []
    for command in fields.commands:
        label = command.name or " ".join(command.argv)
        code = command.exit_code if command.exit_code is not None else command.stop_reason.value
        parts.append(f"{label}={code}")
    return f"{_mark(fields.clean)} static analysis: {', '.join(parts)}"
