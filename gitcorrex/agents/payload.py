"""Reading an agent's JSON payload strictly: anything unexpected is a call we cannot judge,
and a call we cannot judge is blocked (fail closed)."""

from __future__ import annotations

import json
import os
import shlex
from typing import Any

from gitcorrex.errors import UsageError

_KINDS = {str: "a string", dict: "an object", list: "an array", int: "a number",
          float: "a number", bool: "a boolean", type(None): "null"}


class PayloadError(UsageError):
    """The hook payload is not what the agent sends; the call is blocked (fail closed)."""


def load_object(raw: bytes, agent: str) -> dict[str, Any]:
    """The payload as a JSON object; PayloadError for empty input, bad JSON, or not an object."""
    if not raw.strip():
        raise PayloadError(f"hook payload: stdin is empty (expected {agent}'s JSON)")
    try:
        payload = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PayloadError(f"hook payload is not JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise PayloadError("hook payload is not a JSON object")
    return payload


def field(payload: dict[str, Any], key: str, kind: type, *, required: bool) -> Any:
    """`payload[key]` checked to be `kind`; None when absent (or null) and not required."""
    value = payload.get(key)
    if value is None and not required:
        return None
    if key not in payload:
        raise PayloadError(f"hook payload: {key} is missing")
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PayloadError(f"hook payload: {key} must be {_KINDS[kind]}, got "
                           f"{_KINDS.get(type(value), type(value).__name__)}")
    return value


def absolute_cwd(payload: dict[str, Any], key: str = "cwd") -> str | None:
    """The payload's working directory, which must be absolute when given."""
    cwd = field(payload, key, str, required=False)
    if cwd is not None and not os.path.isabs(cwd):
        raise PayloadError(f"hook payload: {key} {cwd!r} is not an absolute path")
    return cwd


def path_of(tool: str, tool_input: dict[str, Any], keys: tuple[str, ...]) -> str:
    """The file a file tool names under the first of `keys` present; a non-empty string."""
    path = next((tool_input[key] for key in keys if key in tool_input), None)
    if not isinstance(path, str) or not path:
        raise PayloadError(f"hook payload: {tool} has no {keys[0]} string in tool_input")
    return path


def shell_text(tool: str, tool_input: dict[str, Any]) -> str:
    """A shell tool's command as shell text: `command` as a string, or as an argument list
    (Codex's exec form, `["bash", "-lc", "…"]`) quoted back into one line."""
    command = tool_input.get("command")
    if isinstance(command, list) and command and all(isinstance(p, str) for p in command):
        return shlex.join(command)
    if not isinstance(command, str):
        raise PayloadError(f"hook payload: {tool} has no command string in tool_input")
    return command
