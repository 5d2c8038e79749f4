"""The hook schema Claude Code, Codex and Gemini CLI share, read by one function.

Each sends one JSON object: the event in `hook_event_name`, `cwd`, its own conversation in
`session_id`; a tool event adds `tool_name` and `tool_input`, a stop event
`stop_hook_active`; a shell tool's `tool_input.command` is the text judged before it runs.
They differ only in names — their events, their file, read and shell
tools (the one table, hosts.py), the key a file tool names its file under — which each
adapter declares once in a `ToolSchema`. Cursor's own hooks are another schema (cursor.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from gitcorrex.agents.hosts import Host
from gitcorrex.agents.payload import absolute_cwd, field, load_object, path_of, shell_text
from gitcorrex.agents.request import Action, Event, HookRequest

ToolReader = Callable[[str, dict[str, Any]], tuple[str | None, tuple[str, ...]]]


class ToolSchema(NamedTuple):
    """One agent's names. `default_event`: what a payload without `hook_event_name` is
    (None: the key is required); `path_keys`: where a file tool names its file, first
    present wins; `stop_message_keys`: where a stop event carries the agent's final message,
    first present wins (none: the host sends no message)."""

    agent: str
    label: str
    events: Mapping[str, str]
    write_tools: frozenset[str]
    read_tools: frozenset[str]
    shell_tools: frozenset[str]
    path_keys: tuple[str, ...]
    default_event: str | None = None
    stop_message_keys: tuple[str, ...] = ()

    @classmethod
    def of(cls, host: Host, *, path_keys: tuple[str, ...],
           default_event: str | None = None) -> ToolSchema:
        """The schema of `host` as the one table (hosts.py) declares it."""
        return cls(agent=host.name, label=host.label, events=host.event_kinds,
                   write_tools=host.write_tools, read_tools=host.read_tools,
                   shell_tools=host.shell_tools, path_keys=path_keys,
                   default_event=default_event, stop_message_keys=host.stop_message_keys)

    def read_tool(self, tool: str, tool_input: dict[str, Any]
                  ) -> tuple[str | None, tuple[str, ...]]:
        """The action a tool call takes and the files it names (none for a shell command,
        None for a tool we do not judge)."""
        if tool in self.write_tools or tool in self.read_tools:
            action = Action.WRITE if tool in self.write_tools else Action.READ
            return action, (path_of(tool, tool_input, self.path_keys),)
        if tool in self.shell_tools:
            return Action.SHELL, ()
        return None, ()


def parse_tool_payload(raw: bytes, schema: ToolSchema,
                       read_tool: ToolReader | None = None) -> HookRequest:
    """The payload as a request (`read_tool`, else the schema's, names the tool's action and
    files); PayloadError for anything the agent would not send."""
    payload = load_object(raw, schema.label)
    required = schema.default_event is None
    hook_event: str = field(payload, "hook_event_name", str, required=required) \
        or schema.default_event or ""
    event = schema.events.get(hook_event, Event.IGNORED)
    cwd = absolute_cwd(payload)
    conversation = field(payload, "session_id", str, required=False)
    if event == Event.STOP:
        active = field(payload, "stop_hook_active", bool, required=False) or False
        return HookRequest(schema.agent, event, hook_event, cwd=cwd, conversation=conversation,
                           stop_hook_active=active, last_message=_stop_message(payload, schema))
    if event == Event.IGNORED:
        return HookRequest(schema.agent, event, hook_event, cwd=cwd, conversation=conversation)
    tool = field(payload, "tool_name", str, required=True)
    tool_input = field(payload, "tool_input", dict, required=True)
    action, paths = (read_tool or schema.read_tool)(tool, tool_input)
    command = shell_text(tool, tool_input) \
        if action == Action.SHELL and event == Event.PRE_TOOL else None
    return HookRequest(schema.agent, event, hook_event, tool=tool, action=action, paths=paths,
                       command=command, cwd=cwd, conversation=conversation)


def _stop_message(payload: dict[str, Any], schema: ToolSchema) -> str | None:
    """The agent's final message on a stop event: the first of the schema's keys present
    (a string, or null for a turn that ended on a tool call: ""); None when none is."""
    for key in schema.stop_message_keys:
        if key in payload:
            return field(payload, key, str, required=False) or ""
    return None
