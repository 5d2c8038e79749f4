"""The static analysis gate: the stage's operator-configured commands, run in the work
tree's top level with verify's runner (own process group, no shell, stderr merged,
timeout ends the group and counts as not clean), recorded with their evidence.

An entry of `static_analysis` that names a profile command runs that command (its argv and
timeout); any other entry is a command line written by the operator in the stage, split
like a shell and run with `defaults.timeout`. Every command runs, so whoever fixes the code
sees all of it at once; the gate passes only when every one exited 0.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from gitcorrex.gates.findings import parse_findings
from gitcorrex.git import Repository, write_blob
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.gates import StaticCommandRecord
from gitcorrex.model.profile import Profile
from gitcorrex.model.verification import OutputEvidence, StopReason
from gitcorrex.profiles.selection import resolve_command
from gitcorrex.runner.command import CommandOutcome, passed, run_command


@dataclass(frozen=True)
class StaticCommand:
    """What to run: a profile command's name (None for a stage command line)."""

    name: str | None
    argv: list[str]
    timeout_s: int


@dataclass(frozen=True)
class StaticRun:
    """Records for the event, the blobs to anchor, and each non-clean command's output."""

    records: list[StaticCommandRecord]
    anchors: dict[str, str]
    failing_output: list[tuple[StaticCommand, bytes]]

    @property
    def clean(self) -> bool:
        return not self.failing_output


def static_commands(profile: Profile, entries: list[str]) -> list[StaticCommand]:
    """Resolve each entry: a profile command by name, else a command line."""
    commands = []
    for entry in entries:
        if entry in profile.commands:
            resolved = resolve_command(profile, entry)
            commands.append(StaticCommand(entry, resolved.argv, resolved.timeout_s))
        else:
            commands.append(StaticCommand(None, shlex.split(entry), profile.defaults.timeout))
    return commands


def run_static(repo: Repository, commands: list[StaticCommand], *, root: Path,
               env: Mapping[str, str], output_cap: int) -> StaticRun:
    """Run every command in `root`; never raises for a command's own failure."""
    records, anchors, failing = [], {}, []
    for command in commands:
        outcome = run_command(command.argv, cwd=root, timeout_s=command.timeout_s, env=env,
                              output_cap=output_cap)
        blob = write_blob(repo, outcome.output)
        anchors[blob] = "blob"
        records.append(_record(command, outcome, blob))
        if not passed(outcome):
            failing.append((command, outcome.output))
    return StaticRun(records, anchors, failing)


def static_feedback(run: StaticRun) -> bytes:
    """Each non-clean command's output, verbatim, under a header naming it."""
    parts = []
    for command, output in run.failing_output:
        label = command.name or shlex.join(command.argv)
        parts.append(f"static analysis {label!r} is not clean:\n".encode() + output)
    return b"\n".join(parts)


def _record(command: StaticCommand, outcome: CommandOutcome, blob: str) -> StaticCommandRecord:
    text = outcome.output.decode("utf-8", "replace")
    findings, omitted = parse_findings(text)
    evidence = OutputEvidence(size=outcome.output_size, sha256=outcome.output_sha256,
                              tail=bound_text(text), blob=blob, truncated=outcome.truncated)
    return StaticCommandRecord(
        name=command.name, argv=list(command.argv), exit_code=outcome.exit_code,
        signal=outcome.signal, stop_reason=StopReason(outcome.stop_reason),
        duration_ms=outcome.duration_ms, output=evidence, findings=findings,
        findings_omitted=omitted)
