"""The one-line verdict a person reads (`pass: …`, `fail: …`, `unavailable: …`), worded from
an observation's line values (what `verify` prints and a settlement says)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gitcorrex.git import Repository, changed_paths
from gitcorrex.model.verdicts import Reason, Result, StopReason

SHOWN_PATHS = 10


def verdict_summary(repo: Repository, values: Mapping[str, Any], state_key: str) -> str:
    """The summary of an observation whose line fields are `values` (JSON values)."""
    where = f"expectation {values['expectation']!r} on {state_key[:12]}"
    commands: list[Mapping[str, Any]] = values["commands"]
    if values["result"] == Result.PASS.value:
        names = ", ".join(record["name"] for record in commands)
        return f"pass: {where} ({names})"
    if values["result"] == Result.FAIL.value:
        return f"fail: {_failure(commands)} ({where})"
    return f"unavailable: {_unavailable(repo, values, state_key)} ({where})"


def _failure(commands: list[Mapping[str, Any]]) -> str:
    for record in commands:
        if record["stop_reason"] == StopReason.SIGNAL.value:
            return f"command {record['name']!r} was killed by signal {record['signal']}"
        if record["stop_reason"] == StopReason.EXIT.value and record["exit_code"] != 0:
            return f"command {record['name']!r} exited {record['exit_code']}"
    return "a command did not pass"


def _unavailable(repo: Repository, values: Mapping[str, Any], state_key: str) -> str:
    reason, commands = values["reason"], values["commands"]
    if reason == Reason.MISSING_PREREQUISITE.value:
        return (f"missing prerequisite {values['missing_path']!r}: create it, or fix the "
                "command's `requires` in .correx.toml")
    if reason == Reason.COMMAND_NOT_FOUND.value:
        argv0 = next((r["argv"][0] for r in commands
                      if r["stop_reason"] == StopReason.NOT_FOUND.value), "?")
        return f"command not found: {argv0!r}: install it or fix .correx.toml"
    if reason == Reason.TIMEOUT.value:
        name = next((r["name"] for r in commands
                     if r["stop_reason"] == StopReason.TIMEOUT.value), "?")
        return f"command {name!r} timed out (raise its `timeout` in .correx.toml)"
    if reason == Reason.SETUP_FAILED.value:
        return "the setup command failed, so nothing was verified"
    return _moved(repo, state_key, values["state_after"])


def _moved(repo: Repository, before: str, after: str | None) -> str:
    paths = changed_paths(repo, before, after) if after else []
    shown = ", ".join(paths[:SHOWN_PATHS]) + (" …" if len(paths) > SHOWN_PATHS else "")
    return (
        f"the workspace changed while the commands ran ({shown}); a changed workspace "
        "never counts as a pass: list what the commands write in .gitignore"
    )
