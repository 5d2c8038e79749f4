"""Executing an expectation: prerequisites first, then each command in order until one fails.

Pure execution: nothing here touches git or the ledger; `observation.py` records the result.
No pydantic either: the plain `verify` path (`verify/plain.py`) runs the commands of a
cached selection, plain objects shaped like `ResolvedCommand` and `Selection`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

from gitcorrex.model.verdicts import Reason, Result
from gitcorrex.runner.command import CommandOutcome, passed, run_command
from gitcorrex.verify.outcome import VerifyProgress


class ResolvedCommand(Protocol):
    """A command ready to run (`profiles.selection.ResolvedCommand`, or its plain copy)."""

    @property
    def name(self) -> str: ...
    @property
    def argv(self) -> Sequence[str]: ...
    @property
    def timeout_s(self) -> int: ...
    @property
    def requires(self) -> Sequence[str]: ...
    @property
    def digest(self) -> str: ...


class Selection(Protocol):
    """The chosen expectation and its commands (`profiles.selection.Selection`, or a copy)."""

    @property
    def expectation(self) -> str: ...
    @property
    def setup(self) -> ResolvedCommand | None: ...
    @property
    def commands(self) -> Sequence[ResolvedCommand]: ...

UNAVAILABLE_STOPS = {"not_found": Reason.COMMAND_NOT_FOUND, "timeout": Reason.TIMEOUT}


class CommandsRun(NamedTuple):
    """Each selected command with its outcome (None = not run), and why the run stopped."""

    runs: list[tuple[ResolvedCommand, CommandOutcome | None]]
    reason: Reason | None
    missing_path: str | None
    failed: bool

    @classmethod
    def not_run(cls, selection: Selection, reason: Reason,
                missing_path: str | None) -> CommandsRun:
        return cls([(command, None) for command in selection.commands], reason,
                   missing_path, False)

    @property
    def failing_output(self) -> bytes | None:
        """Output of the command that stopped the run: ground truth for whoever fixes it."""
        for _, outcome in self.runs:
            if outcome is not None and not passed(outcome):
                return outcome.output
        return None


class SetupRun(NamedTuple):
    """The operator's setup command; its success only allows the verification to run."""

    command: ResolvedCommand
    outcome: CommandOutcome

    @property
    def passed(self) -> bool:
        return passed(self.outcome)


def run_setup(run_dir: Path, selection: Selection, *, env: Mapping[str, str],
              progress: VerifyProgress, output_cap: int) -> SetupRun:
    """Run the expectation's setup command (the caller checked there is one)."""
    if selection.setup is None:
        raise ValueError(f"expectation {selection.expectation!r} has no setup command")
    progress.starting(0, len(selection.commands), selection.setup.name, selection.setup.argv)
    outcome = run_command(selection.setup.argv, cwd=run_dir, timeout_s=selection.setup.timeout_s,
                          env=env, on_output=progress.output, output_cap=output_cap)
    return SetupRun(selection.setup, outcome)


def run_expectation(run_dir: Path, selection: Selection, *, env: Mapping[str, str],
                    progress: VerifyProgress, output_cap: int) -> CommandsRun:
    """Check every prerequisite, then run the commands in order, stopping at the first miss."""
    for command in selection.commands:
        for required in command.requires:
            if not os.path.lexists(run_dir / required):
                return CommandsRun.not_run(selection, Reason.MISSING_PREREQUISITE, required)
    runs: list[tuple[ResolvedCommand, CommandOutcome | None]] = []
    total = len(selection.commands)
    for index, command in enumerate(selection.commands, start=1):
        progress.starting(index, total, command.name, command.argv)
        outcome = run_command(command.argv, cwd=run_dir, timeout_s=command.timeout_s, env=env,
                              on_output=progress.output, output_cap=output_cap)
        runs.append((command, outcome))
        if not passed(outcome):
            runs.extend((rest, None) for rest in selection.commands[index:])
            reason = UNAVAILABLE_STOPS.get(outcome.stop_reason)
            return CommandsRun(runs, reason, None, reason is None)
    return CommandsRun(runs, None, None, False)


def decide(run: CommandsRun, before: str, after: str) -> tuple[Result, Reason | None]:
    """Execution problems first, then a moved workspace, then the commands' own verdict."""
    if run.reason is not None:
        return Result.UNAVAILABLE, run.reason
    if after != before:
        return Result.UNAVAILABLE, Reason.WORKSPACE_CHANGED
    return (Result.FAIL, None) if run.failed else (Result.PASS, None)
