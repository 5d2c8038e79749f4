"""Cursor's own hooks (`.cursor/hooks.json`): `beforeShellExecution`, `afterShellExecution`,
`beforeReadFile`, `afterFileEdit` and `stop`, JSON on stdin with `conversation_id` and
`workspace_roots`.

Before-hooks answer `{"permission": "deny", "user_message", "agent_message"}`; the `stop`
hook answers `{"followup_message": …}` to send the agent back to work, and passes
`loop_count` (how many follow-ups already ran: our `stop_hook_active`). After-hooks cannot
block: what they find is recorded in the ledger and printed on stderr, and the git hook and
the CI range check remain the gate. Cursor also runs Claude Code's hooks
(`.claude/settings.json`); `--hook claude-code` serves those.
"""

from __future__ import annotations

import json
from typing import Any

from gitcorrex.agents.hosts import HOSTS
from gitcorrex.agents.payload import PayloadError, absolute_cwd, field, load_object
from gitcorrex.agents.request import Action, Event, HookRequest, Reply, Verdict

NAME = "cursor"
LABEL = HOSTS[NAME].label
BLOCK_EXIT = 2
# Cursor's events name their action (hosts.py)
EVENTS = {event.name: (event.kind, event.action) for event in HOSTS[NAME].events}


def parse(raw: bytes) -> HookRequest:
    """Cursor's payload as a request; PayloadError for anything it would not send."""
    payload = load_object(raw, LABEL)
    hook_event = field(payload, "hook_event_name", str, required=True)
    event, action = EVENTS.get(hook_event, (Event.IGNORED, None))
    cwd = absolute_cwd(payload) or _workspace_root(payload)
    conversation = field(payload, "conversation_id", str, required=False)
    if event in (Event.STOP, Event.IGNORED):
        loops = field(payload, "loop_count", int, required=False) or 0
        return HookRequest(NAME, event, hook_event, cwd=cwd, conversation=conversation,
                           stop_hook_active=loops > 0)
    paths: tuple[str, ...] = ()
    command = None
    if action in (Action.READ, Action.WRITE):
        path = field(payload, "file_path", str, required=True)
        if not path:
            raise PayloadError(f"hook payload: {hook_event} has an empty file_path")
        paths = (path,)
    else:
        command = field(payload, "command", str, required=True)
    return HookRequest(NAME, event, hook_event, tool=hook_event, action=action, paths=paths,
                       command=command, cwd=cwd, conversation=conversation)


def _workspace_root(payload: dict[str, Any]) -> str | None:
    roots = field(payload, "workspace_roots", list, required=False) or []
    if roots and not all(isinstance(root, str) for root in roots):
        raise PayloadError("hook payload: workspace_roots must be an array of strings")
    return absolute_cwd({"workspace_roots[0]": roots[0]}, "workspace_roots[0]") if roots \
        else None


def render(request: HookRequest, verdict: Verdict) -> Reply:
    """Allowed: `{}` (after-hooks and stop) or `{"permission": "allow"}`. Blocked: deny,
    a follow-up message, or (after the fact) the reason on stderr."""
    if request.event == Event.PRE_TOOL:
        if not verdict.blocked:
            return Reply(0, json.dumps({"permission": "allow"}) + "\n")
        return Reply(0, json.dumps(_deny(verdict.reason)) + "\n")
    if request.event == Event.STOP and verdict.blocked:
        return Reply(0, json.dumps({"followup_message": verdict.reason}) + "\n")
    return Reply(0, "{}\n", verdict.reason if verdict.blocked else verdict.notice)


def fail(text: str) -> Reply:
    """Exit 2 blocks; the deny on stdout says why where a version reads it instead."""
    return Reply(BLOCK_EXIT, json.dumps(_deny(text)) + "\n", text)


def _deny(reason: str) -> dict[str, str]:
    return {"permission": "deny", "user_message": reason, "agent_message": reason}
