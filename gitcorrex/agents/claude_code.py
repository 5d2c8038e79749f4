"""Claude Code's hook protocol: its JSON payload in, its answer out.

Claude Code runs a command hook with one JSON object on stdin (`session_id`, `cwd`,
`hook_event_name`, `tool_name`, `tool_input`, `stop_hook_active`, ...). On exit 0 it reads
stdout as JSON: PreToolUse `hookSpecificOutput.permissionDecision: "deny"` with
`permissionDecisionReason` stops the call; PostToolUse and Stop `decision: "block"` with
`reason` tell the model what went wrong, or keep it working. Exit 2 blocks with stderr as
the reason; **any other exit code lets the call proceed**. So every failure here is exit 2:
a payload we cannot read is a call we cannot judge, and it is blocked.

`session_id` is Claude's own conversation, never a correx session: it is only recorded.
"""

from __future__ import annotations

import json

from gitcorrex.agents.hosts import HOSTS
from gitcorrex.agents.payload import PayloadError
from gitcorrex.agents.request import Event, HookRequest, Reply, Verdict
from gitcorrex.agents.tool_schema import ToolSchema, parse_tool_payload

NAME = "claude-code"
BLOCK_EXIT = 2
# A missing `hook_event_name` is PreToolUse: what `assess --hook` judged before it knew
# other events. Codex shares this schema (codex.py).
SCHEMA = ToolSchema.of(HOSTS[NAME], path_keys=("file_path", "notebook_path"),
                       default_event="PreToolUse")


def parse(raw: bytes) -> HookRequest:
    """Claude Code's payload as a request; PayloadError for anything it would not send."""
    return parse_tool_payload(raw, SCHEMA)


def render(request: HookRequest, verdict: Verdict) -> Reply:
    """Allowed: exit 0, nothing printed (a notice for the person: `systemMessage`).
    Blocked: the structured answer for the event."""
    if not verdict.blocked:
        return notice_reply(verdict)
    if request.event == Event.PRE_TOOL:
        output = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                         "permissionDecision": "deny",
                                         "permissionDecisionReason": verdict.reason}}
        return Reply(0, json.dumps(output) + "\n")
    return Reply(0, json.dumps({"decision": "block", "reason": verdict.reason}) + "\n")


def notice_reply(verdict: Verdict) -> Reply:
    """An allowed call: exit 0 and silence, or `{"systemMessage": notice}`, which Claude
    Code, Codex and Gemini CLI show the person."""
    if not verdict.notice:
        return Reply(0)
    return Reply(0, json.dumps({"systemMessage": verdict.notice}) + "\n")


def fail(text: str) -> Reply:
    """The blocking answer that needs no parsing on the agent's side: exit 2, stderr."""
    return Reply(BLOCK_EXIT, stderr=text)


__all__ = ["NAME", "SCHEMA", "PayloadError", "fail", "notice_reply", "parse", "render"]
