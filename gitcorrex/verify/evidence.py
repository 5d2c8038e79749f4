"""Turning a finished command into ledger evidence: record fields plus an output blob.

Built as the JSON values the line holds (no pydantic): the plain `verify` path writes them
as they are, the model path validates them into `CommandRecord` — one definition for both.
"""

from __future__ import annotations

from typing import Any

from gitcorrex.model.canonical import bound_text
from gitcorrex.model.verdicts import Reason, Result, StopReason
from gitcorrex.runner.command import CommandOutcome
from gitcorrex.verify.run_commands import ResolvedCommand


def command_values(command: ResolvedCommand, outcome: CommandOutcome,
                   blob: str | None) -> dict[str, Any]:
    """The per-command entry of an observation; `blob` holds the kept output."""
    evidence = {
        "size": outcome.output_size,
        "sha256": outcome.output_sha256,
        "tail": bound_text(outcome.output.decode("utf-8", "replace")),
        "blob": blob,
        "truncated": outcome.truncated,
    }
    return {
        "name": command.name,
        "argv": list(command.argv),
        "digest": command.digest,
        "exit_code": outcome.exit_code,
        "signal": outcome.signal,
        "stop_reason": StopReason(outcome.stop_reason).value,
        "duration_ms": outcome.duration_ms,
        "output": evidence,
    }


def skipped_values(command: ResolvedCommand) -> dict[str, Any]:
    """A command not run because an earlier one did not pass (or a prerequisite is missing)."""
    return {"name": command.name, "argv": list(command.argv), "digest": command.digest,
            "exit_code": None, "signal": None, "stop_reason": StopReason.SKIPPED.value,
            "duration_ms": 0, "output": None}


def observation_values(*, expectation: str, result: Result, reason: Reason | None,
                       missing_path: str | None, commands: list[dict[str, Any]],
                       writes: list[str], state_after: str | None, head_tree: str | None,
                       changed: tuple[list[str], int], profile: str,
                       isolated: bool, profile_from: str | None = None,
                       environment: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new `workspace_verification_observed` payload's line fields (nothing reused);
    `profile_from` and `environment` only when given (`VerificationFields.OMIT_WHEN_NONE`)."""
    values: dict[str, Any] = {
        "expectation": expectation,
        "result": result.value,
        "reason": None if reason is None else reason.value,
        "missing_path": missing_path,
        "commands": commands,
        "writes": writes,
        "state_after": state_after,
        "head_tree": head_tree,
        "changed_paths": changed[0],
        "changed_paths_omitted": changed[1],
        "profile": profile,
        "isolated": isolated,
        "reused_from": None,
    }
    if profile_from is not None:
        values["profile_from"] = profile_from
    if environment is not None:
        values["environment"] = environment
    return values


def bounded_paths(changed: list[str], limit: int) -> tuple[list[str], int]:
    """The first `limit` changed paths (`correx.maxChangedPaths`), and how many more were
    left out (`changed_paths_omitted`)."""
    return changed[:limit], max(0, len(changed) - limit)
