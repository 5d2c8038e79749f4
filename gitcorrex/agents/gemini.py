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

from gitcorrex.agents.hosts import HOSTS
from gitcorrex.agents.request import HookRequest, Reply, Verdict
from gitcorrex.agents.tool_schema import ToolSchema, parse_tool_payload

BLOCK_EXIT = 2
SCHEMA = ToolSchema.of(HOSTS["gemini"], path_keys=("file_path", "absolute_path", "path"))


def parse(raw: bytes) -> HookRequest:
    """Gemini CLI's payload as a request; PayloadError for anything it would not send."""
    return parse_tool_payload(raw, SCHEMA)


def render(request: HookRequest, verdict: Verdict) -> Reply:
    """Allowed: exit 0 and `{}`-free silence (a notice: `systemMessage`). Blocked:
    `{"decision": "deny", "reason"}`."""
    if not verdict.blocked:
        from gitcorrex.agents.claude_code import notice_reply

        return notice_reply(verdict)
    return Reply(0, json.dumps({"decision": "deny", "reason": verdict.reason}) + "\n")


def fail(text: str) -> Reply:
    return Reply(BLOCK_EXIT, stderr=text)
