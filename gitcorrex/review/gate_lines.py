"""The verdict part of a `show`/`replay` line for gate facts and precondition signals.

Read only from the recorded fields (never recomputed): a replay shows what was judged and
what was found, exactly as recorded.
"""

from __future__ import annotations

from collections.abc import Callable

from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.gates import (
    ArtifactsChecked,
    BriefEchoMismatch,
    BriefGroundingChecked,
    StaticAnalysisCompleted,
)
from gitcorrex.model.preconditions import PreconditionFailed


def _mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def _dicts(value: object) -> list[dict[str, object]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _artifacts(event: RecordedEvent) -> str:
    """`✓ artifacts brief=supplied`."""
    found = " ".join(f"{a.get('name')}={a.get('status')}"
                     for a in _dicts(event.field("artifacts")))
    return f"{_mark(event.field('passed') is True)} artifacts {found or '(none)'}"


def _grounding(event: RecordedEvent) -> str:
    """`✗ brief grounding: 1 of 3 reference(s) missing: src/nope.py`."""
    refs = _dicts(event.field("references"))
    missing = [str(r.get("path")) for r in refs if r.get("status") == "absent"]
    text = f"{_mark(event.field('passed') is True)} brief grounding: {event.field('missing')} " \
           f"of {len(refs)} reference(s) missing"
    return text + (f": {', '.join(missing[:3])}" if missing else "")


def _echo(event: RecordedEvent) -> str:
    """`✗ brief echo mismatch: 1 dropped requirement(s), 1 unknown file(s)`."""
    dropped = len(_dicts(event.field("dropped")))
    files = event.field("hallucinated_files")
    count = len(files) if isinstance(files, list) else 0
    return f"✗ brief echo mismatch: {dropped} dropped requirement(s), {count} unknown file(s)"


def _static(event: RecordedEvent) -> str:
    """`✗ static analysis: lint=1, true=0`, or the no-op of a bare repository."""
    if event.field("skipped"):
        return f"✓ static analysis skipped ({event.field('skipped')})"
    parts = []
    for command in _dicts(event.field("commands")):
        argv = command.get("argv")
        label = command.get("name") or (" ".join(map(str, argv)) if isinstance(argv, list)
                                        else "?")
        code = command.get("exit_code")
        parts.append(f"{label}={code if code is not None else command.get('stop_reason')}")
    return f"{_mark(event.field('clean') is True)} static analysis: {', '.join(parts)}"


def _precondition(event: RecordedEvent) -> str:
    """`✗ precondition failed: pyproject.toml (3 attempts; profile_requires test)`."""
    return f"✗ precondition failed: {event.field('path')} ({event.field('attempts')} " \
           f"attempts; {event.field('source')} {event.field('named_by')})"


GATE_LINES: dict[str, Callable[[RecordedEvent], str]] = {
    ArtifactsChecked.KIND: _artifacts, BriefGroundingChecked.KIND: _grounding,
    BriefEchoMismatch.KIND: _echo,
    StaticAnalysisCompleted.KIND: _static, PreconditionFailed.KIND: _precondition}
