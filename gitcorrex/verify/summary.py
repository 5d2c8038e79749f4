"""The one-line verdict a person reads, and the baseline `changed_paths` is measured from."""

from __future__ import annotations

from gitcorrex import ledger
from gitcorrex.git.repository import Repository
from gitcorrex.git.trees import changed_paths
from gitcorrex.model.events import session_object_oid
from gitcorrex.model.observed_pass import is_observed_pass
from gitcorrex.model.verification import (
    CommandRecord,
    Reason,
    Result,
    StopReason,
    VerificationFields,
)

SHOWN_PATHS = 10


def baseline_tree(repo: Repository, session: str | None, head_tree: str | None) -> str | None:
    """Inside a session: the latest passing state; otherwise (or before any pass) HEAD."""
    if session is None:
        return head_tree
    entries = ledger.read_subject(repo, session_object_oid(session)).entries
    passes = [entry for entry in entries if entry.session == session and is_observed_pass(entry)]
    if not passes:
        return head_tree
    latest = max(passes, key=lambda entry: entry.seq or 0)
    return latest.state_key


def summarize(repo: Repository, fields: VerificationFields, state_key: str) -> str:
    """`pass: …`, `fail: …` or `unavailable: …` naming the command, path or cause."""
    where = f"expectation {fields.expectation!r} on {state_key[:12]}"
    if fields.result is Result.PASS:
        names = ", ".join(record.name for record in fields.commands)
        return f"pass: {where} ({names})"
    if fields.result is Result.FAIL:
        return f"fail: {_failure(fields.commands)} ({where})"
    return f"unavailable: {_unavailable(repo, fields, state_key)} ({where})"


def _failure(commands: list[CommandRecord]) -> str:
    for record in commands:
        if record.stop_reason is StopReason.SIGNAL:
            return f"command {record.name!r} was killed by signal {record.signal}"
        if record.stop_reason is StopReason.EXIT and record.exit_code != 0:
            return f"command {record.name!r} exited {record.exit_code}"
    return "a command did not pass"


def _unavailable(repo: Repository, fields: VerificationFields, state_key: str) -> str:
    if fields.reason is Reason.MISSING_PREREQUISITE:
        return (f"missing prerequisite {fields.missing_path!r}: create it, or fix the "
                "command's `requires` in .correx.toml")
    if fields.reason is Reason.COMMAND_NOT_FOUND:
        argv0 = next((r.argv[0] for r in fields.commands if r.stop_reason is
                      StopReason.NOT_FOUND), "?")
        return f"command not found: {argv0!r}: install it or fix .correx.toml"
    if fields.reason is Reason.TIMEOUT:
        name = next((r.name for r in fields.commands if r.stop_reason is StopReason.TIMEOUT), "?")
        return f"command {name!r} timed out (raise its `timeout` in .correx.toml)"
    if fields.reason is Reason.SETUP_FAILED:
        return "the setup command failed, so nothing was verified"
    return _moved(repo, state_key, fields.state_after)


def _moved(repo: Repository, before: str, after: str | None) -> str:
    paths = changed_paths(repo, before, after) if after else []
    shown = ", ".join(paths[:SHOWN_PATHS]) + (" …" if len(paths) > SHOWN_PATHS else "")
    return (
        f"the workspace changed while the commands ran ({shown}); a changed workspace "
        "never counts as a pass: list what the commands write in .gitignore"
    )
