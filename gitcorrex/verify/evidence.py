"""Turning a finished command into ledger evidence: record fields plus an output blob."""

from __future__ import annotations

from gitcorrex.model.canonical import bound_text
from gitcorrex.model.verification import CommandRecord, OutputEvidence, StopReason
from gitcorrex.profiles.selection import ResolvedCommand
from gitcorrex.runner.command import CommandOutcome


def command_record(command: ResolvedCommand, outcome: CommandOutcome,
                   blob: str | None) -> CommandRecord:
    """The per-command entry of an observation; `blob` holds the kept output."""
    evidence = OutputEvidence(
        size=outcome.output_size,
        sha256=outcome.output_sha256,
        tail=bound_text(outcome.output.decode("utf-8", "replace")),
        blob=blob,
        truncated=outcome.truncated,
    )
    return CommandRecord(
        name=command.name,
        argv=list(command.argv),
        digest=command.digest,
        exit_code=outcome.exit_code,
        signal=outcome.signal,
        stop_reason=StopReason(outcome.stop_reason),
        duration_ms=outcome.duration_ms,
        output=evidence,
    )


def skipped_record(command: ResolvedCommand) -> CommandRecord:
    """A command not run because an earlier one did not pass (or a prerequisite is missing)."""
    return CommandRecord(name=command.name, argv=list(command.argv), digest=command.digest,
                         exit_code=None, signal=None, stop_reason=StopReason.SKIPPED,
                         duration_ms=0, output=None)
