"""The Claude Code PreToolUse adapter: its JSON payload in, its exit-code protocol out.

Claude Code runs a PreToolUse command hook with one JSON object on stdin (`session_id`,
`cwd`, `hook_event_name`, `tool_name`, `tool_input`, ...). Exit 0 lets the call proceed;
exit 2 blocks it and hands stderr to the model as the reason; any other exit code is a
non-blocking error and the call proceeds anyway. So every failure here must become exit 2:
a payload we cannot read is a tool call we cannot judge, and it is blocked.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitcorrex import ledger
from gitcorrex.errors import CorrexError, UsageError
from gitcorrex.manifest.assess import AssessOutcome
from gitcorrex.manifest.paths import printable_path

ALLOW_EXIT = 0
BLOCK_EXIT = 2
WRITE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
READ_TOOLS = frozenset({"Read"})
PATH_KEYS = ("file_path", "notebook_path")
_KINDS = {str: "a string", dict: "an object", list: "an array", int: "a number",
          float: "a number", bool: "a boolean", type(None): "null"}


class PayloadError(UsageError):
    """The hook payload is not what Claude Code sends; the call is blocked (fail closed)."""


@dataclass(frozen=True)
class ToolCall:
    """A file tool call to assess: `action` write/read, the path as the tool names it."""

    tool: str
    action: str
    path: str
    cwd: str | None
    session: str | None

    @property
    def ledger_session(self) -> str | None:
        """Claude Code's session id as the ledger's session, when it is a valid id (a UUID
        is); otherwise the verdict is recorded without a session rather than refused."""
        if self.session is None:
            return None
        try:
            ledger.check_session_id(self.session)
        except UsageError:
            return None
        return self.session


def parse_tool_call(raw: bytes) -> ToolCall | None:
    """The file tool call in a PreToolUse payload; None for a tool we do not judge.

    Raises PayloadError for anything else than a JSON object with a string `tool_name`, an
    object `tool_input` and, for file tools, a non-empty string `file_path` (or
    `notebook_path`); `cwd` must be an absolute path and `session_id` a string when given.
    """
    payload = _load(raw)
    tool = _field(payload, "tool_name", str, required=True)
    tool_input = _field(payload, "tool_input", dict, required=True)
    cwd = _field(payload, "cwd", str, required=False)
    session = _field(payload, "session_id", str, required=False)
    if cwd is not None and not os.path.isabs(cwd):
        raise PayloadError(f"hook payload: cwd {cwd!r} is not an absolute path")
    if tool not in WRITE_TOOLS and tool not in READ_TOOLS:
        return None
    path = next((tool_input[key] for key in PATH_KEYS if key in tool_input), None)
    if not isinstance(path, str) or not path:
        raise PayloadError(f"hook payload: {tool} has no file_path string in tool_input")
    action = "write" if tool in WRITE_TOOLS else "read"
    return ToolCall(tool=tool, action=action, path=path, cwd=cwd, session=session)


def hook_base(call: ToolCall, *, default: Path) -> Path:
    """The directory the tool call's relative paths mean: the payload's `cwd`, if any."""
    if call.cwd is None:
        return default
    base = Path(call.cwd)
    if not base.is_dir():
        raise PayloadError(f"hook payload: cwd {printable_path(call.cwd)} is not a directory")
    return base


def _load(raw: bytes) -> dict[str, Any]:
    if not raw.strip():
        raise PayloadError("hook payload: stdin is empty (expected Claude Code's JSON)")
    try:
        payload = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PayloadError(f"hook payload is not JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise PayloadError("hook payload is not a JSON object")
    return payload


def _field(payload: dict[str, Any], key: str, kind: type, *, required: bool) -> Any:
    value = payload.get(key)
    if value is None and not required:
        return None
    if key not in payload:
        raise PayloadError(f"hook payload: {key} is missing")
    if not isinstance(value, kind):
        raise PayloadError(f"hook payload: {key} must be {_KINDS[kind]}, got "
                           f"{_KINDS.get(type(value), type(value).__name__)}")
    return value


def block_reason(call: ToolCall, outcome: AssessOutcome) -> str:
    """What was blocked and what to do instead, for the model (stderr with exit 2)."""
    lines = [f"git correx blocked this {call.tool} (a {call.action} of "
             f"{printable_path(call.path)}):"]
    for path in outcome.blocked:
        lines.append(f"  {path.rule.value}: {path.path}: {path.detail}")
        lines.append(f"  instead: {path.fix}")
    for signal in outcome.preconditions:
        lines.append(f"  {signal.path} is a build prerequisite ({signal.named_by}) still missing "
                     f"after {signal.attempts} attempts: stop retrying; it must be created by a "
                     "bootstrap step, or the operator must clarify")
    return "\n".join(lines) + "\n"


def failure_reason(exc: BaseException) -> str:
    """Why the call could not be judged; it is blocked all the same (fail closed)."""
    if isinstance(exc, CorrexError):
        what = exc.message + (f"\n  hint: {exc.hint}" if exc.hint else "")
    else:
        what = f"internal error (a bug, please report it): {type(exc).__name__}: {exc}"
    return ("git correx could not assess this tool call, so it is blocked (fail closed):\n"
            f"  {what}\n")
