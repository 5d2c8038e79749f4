"""Codex CLI's hooks: Claude Code's schema (PreToolUse, PostToolUse, Stop on stdin), with
`Bash` and `apply_patch` carrying their text in `tool_input.command`.

An `apply_patch` is a write of every file its headers name. Answers are exit 2 with the
reason on stderr, for every event: Codex treats an unknown field in a hook's JSON output as
a failed hook and lets the tool run, while exit 2 blocks in every version.
"""

from __future__ import annotations

from typing import Any

from gitcorrex.agents import claude_code
from gitcorrex.agents.apply_patch import patch_paths
from gitcorrex.agents.hosts import HOSTS
from gitcorrex.agents.payload import PayloadError
from gitcorrex.agents.request import Action, HookRequest, Reply, Verdict
from gitcorrex.agents.tool_schema import ToolSchema, parse_tool_payload

PATCH_TOOL = "apply_patch"  # Codex's one file tool (hosts.py: its only write tool)
SCHEMA = ToolSchema.of(HOSTS["codex"], path_keys=claude_code.SCHEMA.path_keys,
                       default_event=claude_code.SCHEMA.default_event)


def parse(raw: bytes) -> HookRequest:
    """Codex's payload as a request; PayloadError for anything it would not send."""
    return parse_tool_payload(raw, SCHEMA, read_tool)


def read_tool(tool: str, tool_input: dict[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    """apply_patch → a write of the files it names; a shell tool → its command; any other
    tool is not judged."""
    if tool == PATCH_TOOL:
        command = tool_input.get("command")
        if isinstance(command, list):  # ["apply_patch", "<patch>"] in some versions
            command = "\n".join(str(part) for part in command)
        if not isinstance(command, str):
            raise PayloadError("hook payload: apply_patch has no command string in tool_input")
        return Action.WRITE, patch_paths(command)
    return SCHEMA.read_tool(tool, tool_input)


def render(request: HookRequest, verdict: Verdict) -> Reply:
    """Allowed: exit 0 and silence (a notice: `systemMessage`). Blocked: exit 2, the
    reason on stderr."""
    if not verdict.blocked:
        return claude_code.notice_reply(verdict)
    return Reply(claude_code.BLOCK_EXIT, stderr=verdict.reason)


def fail(text: str) -> Reply:
    return Reply(claude_code.BLOCK_EXIT, stderr=text)
