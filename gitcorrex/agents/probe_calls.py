"""doctor's synthetic hook calls, spelled as each host sends them, and each host's reading of
the answer: does the host block the call on this exit code and output?

The payloads carry the fields the adapters read (tests/agents/conftest.py spells the full
payloads the hosts send); the readings follow each host's documented contract, not our
adapters: Claude Code, Codex, Gemini CLI and Cursor block on exit 2 (any other non-zero exit
lets the call run), Copilot CLI skips every non-zero exit and blocks only on the answer on
stdout. A timed-out hook blocks nothing anywhere.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from gitcorrex.agents.hosts import HookEvent, Host
from gitcorrex.agents.request import Action, Event

# a fresh id per run, like a host's own: a hook written to spot the probe has less to go on
CONVERSATION = str(uuid.uuid4())
_EXIT_2_IS_SKIPPED = frozenset({"copilot-cli"})


def payload(host: Host, event: HookEvent, *, cwd: str, tool: str | None = None,
            path: str | None = None, command: str | None = None) -> bytes:
    """The call `host` sends for `event` (naming `tool` with `path` or `command`)."""
    if host.name == "cursor":
        return _json(_cursor(event, cwd, path, command))
    if host.name == "copilot-cli":
        return _json(_copilot(event, cwd, tool, path, command))
    document: dict[str, Any] = {"session_id": CONVERSATION, "cwd": cwd,
                                "hook_event_name": event.name}
    if event.kind == Event.STOP:
        return _json({**document, "stop_hook_active": False})
    tool_input: dict[str, Any] = {"command": command} if command is not None \
        else {"file_path": path, "content": "probe\n"}
    if tool == "apply_patch":  # Codex's file tool: the patch names the file
        tool_input = {"command": f"*** Begin Patch\n*** Add File: {path}\n+probe\n"
                                 "*** End Patch\n"}
    return _json({**document, "tool_name": tool, "tool_input": tool_input})


def blocked_reason(host: Host, kind: str, exit_code: int | None, stdout: bytes,
                   stderr: bytes) -> str | None:
    """Why `host` blocks the call on this answer; None when the call goes ahead."""
    err = stderr.decode("utf-8", "replace").strip()
    if exit_code == 2 and host.name not in _EXIT_2_IS_SKIPPED:
        return err or "(exit 2)"
    if exit_code != 0:
        return None
    try:
        answer = json.loads(stdout.decode("utf-8", "replace") or "{}")
    except json.JSONDecodeError:
        return None  # unreadable output: every host proceeds
    return _refusal(answer, kind) if isinstance(answer, dict) else None


def _refusal(answer: dict[str, Any], kind: str) -> str | None:
    """The blocking answers the hosts read on exit 0, whichever host's adapter wrote it:
    `hookSpecificOutput.permissionDecision`/`permissionDecision`/`permission` deny,
    `decision` deny or block, a Cursor stop's `followup_message`."""
    specific = answer.get("hookSpecificOutput")
    if isinstance(specific, dict) and specific.get("permissionDecision") == "deny":
        return str(specific.get("permissionDecisionReason", ""))
    if kind == Event.PRE_TOOL and answer.get("permissionDecision") == "deny":
        return str(answer.get("permissionDecisionReason", ""))
    if kind == Event.PRE_TOOL and answer.get("permission") == "deny":
        return str(answer.get("agent_message", ""))
    if answer.get("decision") in ("deny", "block"):
        return str(answer.get("reason", ""))
    if kind == Event.STOP and answer.get("followup_message"):
        return str(answer["followup_message"])
    return None


def _cursor(event: HookEvent, cwd: str, path: str | None, command: str | None
            ) -> dict[str, Any]:
    document: dict[str, Any] = {"hook_event_name": event.name, "conversation_id": CONVERSATION,
                                "generation_id": CONVERSATION, "workspace_roots": [cwd]}
    if event.kind == Event.STOP:
        return {**document, "status": "completed", "loop_count": 0}
    if event.action == Action.SHELL:
        return {**document, "command": command, "cwd": cwd}
    return {**document, "file_path": path}


def _copilot(event: HookEvent, cwd: str, tool: str | None, path: str | None,
             command: str | None) -> dict[str, Any]:
    document: dict[str, Any] = {"sessionId": CONVERSATION, "timestamp": 0, "cwd": cwd}
    if event.kind == Event.STOP:
        return {**document, "transcriptPath": "", "stopReason": "end_turn"}
    args = {"command": command} if command is not None else {"path": path, "file_text": "x"}
    return {**document, "toolName": tool, "toolArgs": args}


def _json(document: dict[str, Any]) -> bytes:
    return json.dumps(document).encode()
