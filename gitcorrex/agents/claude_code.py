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
from collections.abc import Callable
from typing import Any

from gitcorrex.agents.payload import PayloadError, absolute_cwd, field, load_object, path_of
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

NAME = "claude-code"
LABEL = "Claude Code"
BLOCK_EXIT = 2
WRITE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
READ_TOOLS = frozenset({"Read"})
SHELL_TOOLS = frozenset({"Bash"})
PATH_KEYS = ("file_path", "notebook_path")
EVENTS = {"PreToolUse": PRE_TOOL, "PostToolUse": POST_TOOL, "Stop": STOP}
ToolReader = Callable[[str, dict[str, Any]], tuple[str | None, tuple[str, ...]]]


def parse(raw: bytes) -> HookRequest:
    """Claude Code's payload as a request; PayloadError for anything it would not send."""
    return parse_payload(raw, agent=NAME, label=LABEL, read_tool=read_tool)


def read_tool(tool: str, tool_input: dict[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    """The action a tool call takes and the files it names (none for a shell command)."""
    if tool in WRITE_TOOLS or tool in READ_TOOLS:
        action = WRITE if tool in WRITE_TOOLS else READ
        return action, (path_of(tool, tool_input, PATH_KEYS),)
    if tool in SHELL_TOOLS:
        return SHELL, ()
    return None, ()


def parse_payload(raw: bytes, *, agent: str, label: str, read_tool: ToolReader) -> HookRequest:
    """The Claude Code hook schema, which Codex shares: a missing `hook_event_name` is
    PreToolUse (what `assess --hook` judged before it knew other events)."""
    payload = load_object(raw, label)
    hook_event = field(payload, "hook_event_name", str, required=False) or "PreToolUse"
    event = EVENTS.get(hook_event, IGNORED)
    cwd = absolute_cwd(payload)
    conversation = field(payload, "session_id", str, required=False)
    if event == STOP:
        active = field(payload, "stop_hook_active", bool, required=False) or False
        return HookRequest(agent, STOP, hook_event, cwd=cwd, conversation=conversation,
                           stop_hook_active=active)
    if event == IGNORED:
        return HookRequest(agent, IGNORED, hook_event, cwd=cwd, conversation=conversation)
    tool = field(payload, "tool_name", str, required=True)
    tool_input = field(payload, "tool_input", dict, required=True)
    action, paths = read_tool(tool, tool_input)
    return HookRequest(agent, event, hook_event, tool=tool, action=action, paths=paths,
                       cwd=cwd, conversation=conversation)


def render(request: HookRequest, verdict: Verdict) -> Reply:
    """Allowed: exit 0, nothing printed. Blocked: the structured answer for the event."""
    if not verdict.blocked:
        return Reply(0)
    if request.event == PRE_TOOL:
        output = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                         "permissionDecision": "deny",
                                         "permissionDecisionReason": verdict.reason}}
        return Reply(0, json.dumps(output) + "\n")
    return Reply(0, json.dumps({"decision": "block", "reason": verdict.reason}) + "\n")


def fail(text: str) -> Reply:
    """The blocking answer that needs no parsing on the agent's side: exit 2, stderr."""
    return Reply(BLOCK_EXIT, stderr=text)


__all__ = ["NAME", "PayloadError", "fail", "parse", "parse_payload", "read_tool", "render"]
