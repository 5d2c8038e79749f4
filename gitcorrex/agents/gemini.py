"""Gemini CLI's hooks: `BeforeTool`, `AfterTool` and `AfterAgent`, JSON on stdin.

Its file tools name their file in `tool_input.file_path` (`write_file`, `replace`;
`read_file` also as `absolute_path` in older releases); `run_shell_command` carries
`command`. On exit 0 Gemini reads stdout as JSON: `{"decision": "deny", "reason": …}` stops a
BeforeTool call, hides an AfterTool result behind the reason, and makes AfterAgent retry the
turn with the reason as the next prompt. Exit 2 blocks with stderr; any other code is a
warning and the action proceeds, so every failure is exit 2.
"""

from __future__ import annotations

import json
from typing import Any

from gitcorrex.agents.payload import absolute_cwd, field, load_object, path_of
from gitcorrex.agents.request import (
    IGNORED,
    POST_TOOL,
    PRE_TOOL,
    READ,
    SHELL,
    STOP,
    WRITE,
    HookRequest,
    Reply,
    Verdict,
)

NAME = "gemini"
LABEL = "Gemini CLI"
BLOCK_EXIT = 2
WRITE_TOOLS = frozenset({"write_file", "replace", "edit"})
READ_TOOLS = frozenset({"read_file"})
SHELL_TOOLS = frozenset({"run_shell_command"})
PATH_KEYS = ("file_path", "absolute_path", "path")
EVENTS = {"BeforeTool": PRE_TOOL, "AfterTool": POST_TOOL, "AfterAgent": STOP}


def parse(raw: bytes) -> HookRequest:
    """Gemini CLI's payload as a request; PayloadError for anything it would not send."""
    payload = load_object(raw, LABEL)
    hook_event = field(payload, "hook_event_name", str, required=True)
    event = EVENTS.get(hook_event, IGNORED)
    cwd = absolute_cwd(payload)
    conversation = field(payload, "session_id", str, required=False)
    if event in (STOP, IGNORED):
        active = field(payload, "stop_hook_active", bool, required=False) or False
        return HookRequest(NAME, event, hook_event, cwd=cwd, conversation=conversation,
                           stop_hook_active=active)
    tool = field(payload, "tool_name", str, required=True)
    tool_input = field(payload, "tool_input", dict, required=True)
    action, paths = _read_tool(tool, tool_input)
    return HookRequest(NAME, event, hook_event, tool=tool, action=action, paths=paths,
                       cwd=cwd, conversation=conversation)


def _read_tool(tool: str, tool_input: dict[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    if tool in WRITE_TOOLS or tool in READ_TOOLS:
        action = WRITE if tool in WRITE_TOOLS else READ
        return action, (path_of(tool, tool_input, PATH_KEYS),)
    if tool in SHELL_TOOLS:
        return SHELL, ()
    return None, ()


def render(request: HookRequest, verdict: Verdict) -> Reply:
    """Allowed: exit 0 and `{}`-free silence. Blocked: `{"decision": "deny", "reason"}`."""
    if not verdict.blocked:
        return Reply(0)
    return Reply(0, json.dumps({"decision": "deny", "reason": verdict.reason}) + "\n")


def fail(text: str) -> Reply:
    return Reply(BLOCK_EXIT, stderr=text)
