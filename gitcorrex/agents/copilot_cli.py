"""GitHub Copilot CLI's hooks (`.github/hooks/*.json`): `preToolUse`, `postToolUse` and
`agentStop`, one JSON object on stdin.

Copilot sends camelCase fields and does not name the event: `sessionId`, `timestamp`, `cwd`;
a tool event adds `toolName` and `toolArgs` (an object, or the same object as a JSON string
in older releases), `postToolUse` also `toolResult`; `agentStop` adds `transcriptPath` and
`stopReason`. So the event is read from what the payload carries (a `hook_event_name`, sent
in the VS Code compatible format, wins); anything else is a payload we cannot judge.
File tools name their file in `toolArgs.path` (`create`, `edit`, `view`); `bash` and
`powershell` carry `command`, `write_bash` types `input` into a running shell.

On exit 0 Copilot reads stdout: `{"permissionDecision": "deny", "permissionDecisionReason"}`
stops a preToolUse call, `{"decision": "block", "reason"}` sends the agent back to work from
agentStop (Copilot caps consecutive blocks itself). postToolUse output is ignored: what it
finds is recorded in the ledger and printed on stderr. **Any non-zero exit or a timeout is
logged and skipped: the tool runs.** So every failure here is exit 0 with both blocking
answers on stdout, and the installed command prints them itself when git correx cannot start
(hosts.py, `start_failure`).
"""

from __future__ import annotations

import json
from typing import Any

from gitcorrex.agents.hosts import HOSTS
from gitcorrex.agents.payload import PayloadError, absolute_cwd, field, load_object, path_of
from gitcorrex.agents.request import Action, Event, HookRequest, Reply, Verdict

HOST = HOSTS["copilot-cli"]
PATH_KEYS = ("path",)
_INPUT_KEYS = {"write_bash": "input"}  # else `command`
_VSCODE_EVENTS = {"PreToolUse": "preToolUse", "PostToolUse": "postToolUse",
                  "Stop": "agentStop"}


def parse(raw: bytes) -> HookRequest:
    """Copilot CLI's payload as a request; PayloadError for anything it would not send."""
    payload = load_object(raw, HOST.label)
    hook_event = _event_of(payload)
    event = HOST.event_kinds.get(hook_event, Event.IGNORED)
    cwd = absolute_cwd(payload)
    conversation = field(payload, "sessionId", str, required=False) \
        or field(payload, "session_id", str, required=False)
    if event != Event.PRE_TOOL and event != Event.POST_TOOL:
        active = bool(field(payload, "stop_hook_active", bool, required=False)
                      or field(payload, "stopHookActive", bool, required=False))
        return HookRequest(HOST.name, event, hook_event, cwd=cwd, conversation=conversation,
                           stop_hook_active=active)
    vscode = "toolName" not in payload and "tool_name" in payload  # the VS Code format
    tool = field(payload, "tool_name" if vscode else "toolName", str, required=True)
    args = _tool_args(payload.get("tool_input" if vscode else "toolArgs"), tool)
    action, paths, command = _read_tool(tool, args)
    return HookRequest(HOST.name, event, hook_event, tool=tool, action=action, paths=paths,
                       command=command if event == Event.PRE_TOOL else None, cwd=cwd,
                       conversation=conversation)


def _event_of(payload: dict[str, Any]) -> str:
    """The event the payload is for: its `hook_event_name`, else what it carries."""
    named = field(payload, "hook_event_name", str, required=False)
    if named is not None:
        return _VSCODE_EVENTS.get(named, named)
    if "toolName" in payload or "tool_name" in payload:
        done = "toolResult" in payload or "tool_result" in payload
        return "postToolUse" if done else "preToolUse"
    if "stopReason" in payload or "transcriptPath" in payload:
        return "agentStop"
    raise PayloadError("hook payload: neither toolName nor stopReason (not a preToolUse, "
                       "postToolUse or agentStop payload)")


def _tool_args(args: object, tool: str) -> dict[str, Any]:
    """`toolArgs` as an object (older releases send it as a JSON string)."""
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError as exc:
            raise PayloadError(f"hook payload: {tool}'s toolArgs is not JSON: {exc}") from None
    if not isinstance(args, dict):
        raise PayloadError(f"hook payload: {tool}'s toolArgs must be an object")
    return args


def _read_tool(tool: str, args: dict[str, Any]
               ) -> tuple[str | None, tuple[str, ...], str | None]:
    """The action, the files it names, and a shell call's text."""
    if tool in HOST.write_tools or tool in HOST.read_tools:
        action = Action.WRITE if tool in HOST.write_tools else Action.READ
        return action, (path_of(tool, args, PATH_KEYS),), None
    if tool in HOST.shell_tools:
        key = _INPUT_KEYS.get(tool, "command")
        text = args.get(key)
        if not isinstance(text, str):
            raise PayloadError(f"hook payload: {tool} has no {key} string in toolArgs")
        return Action.SHELL, (), text
    return None, (), None


def render(request: HookRequest, verdict: Verdict) -> Reply:
    """Allowed: exit 0 and silence (Copilot's own permission flow goes on); a notice for the
    person (a Stop released by the block cap) on stderr, where Copilot logs a hook's words.
    Blocked: the event's answer; after a tool ran, the reason on stderr (Copilot reads no
    answer)."""
    if not verdict.blocked:
        return Reply(0, "", verdict.notice) if verdict.notice else Reply(0)
    if request.event == Event.PRE_TOOL:
        answer = {"permissionDecision": "deny", "permissionDecisionReason": verdict.reason}
        return Reply(0, json.dumps(answer) + "\n")
    if request.event == Event.STOP:
        return Reply(0, json.dumps({"decision": "block", "reason": verdict.reason}) + "\n")
    return Reply(0, "", verdict.reason)


def fail(text: str) -> Reply:
    """Both blocking answers, exit 0: a non-zero exit would let the tool run."""
    answer = {"permissionDecision": "deny", "permissionDecisionReason": text,
              "decision": "block", "reason": text}
    return Reply(0, json.dumps(answer) + "\n", text)
