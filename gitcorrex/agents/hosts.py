"""The one table of agent hosts: per host, the file `hooks install --agent NAME` writes, every
project file whose hooks the host runs, the events and matchers git correx installs, the tool
names it sends for file writes, reads and shell calls, and its adapter module.

Everything that names a host's events or tools derives from this table: the adapters' tool
sets (claude_code.py, codex.py, gemini.py, cursor.py, copilot_cli.py), install.py's layouts,
the `--hook`/`--agent` choices, doctor's probes and double-registration check, and the
generated tables in docs/agents/ (host_docs.py). tests/agents/test_hosts_table.py fails when a
matcher names a tool the adapter does not judge, when the adapter judges a tool no matcher
selects, and when a doc's table is stale.

Named tuples of constants (no dataclasses, which load `inspect`): the hook path imports
this on every tool call.
"""

from __future__ import annotations

from typing import NamedTuple

from gitcorrex.agents.request import Action, Event


class HookEvent(NamedTuple):
    """One event git correx installs. `name` as the host spells it; `kind` what the judge
    sees (request.Event); `matcher` as written into the settings (None: no matcher, the host
    runs the hook for every tool or the event has none); `action` the action the event itself
    implies (Cursor's events name it); `timeout` seconds written into the entry where the
    host's default would cut a Stop gate short."""

    name: str
    kind: str
    matcher: str | None = None
    action: str | None = None
    timeout: int | None = None


class Host(NamedTuple):
    """One agent host. `loads`: every project file whose hooks it runs, its own first
    (shell glob patterns, relative to the repository root); `matcher_aliases`: names a
    matcher may use for a tool the host sends under another name (Codex selects
    `apply_patch` with `Edit|Write`); `foreign_switch`: how to stop the host loading other
    hosts' files, where it has one; `start_failure`: the shell text the installed command
    runs when git correx cannot start, in the host's blocking answer; `stop_message_keys`:
    where its stop event carries the agent's final message, first present wins (none: the
    host sends no message, so every stop runs the full check: agents/claims.py)."""

    name: str
    label: str
    adapter: str
    settings: str
    loads: tuple[str, ...]
    events: tuple[HookEvent, ...]
    write_tools: frozenset[str] = frozenset()
    read_tools: frozenset[str] = frozenset()
    shell_tools: frozenset[str] = frozenset()
    matcher_aliases: frozenset[str] = frozenset()
    foreign_switch: str | None = None
    start_failure: str = "exit 2"
    stop_message_keys: tuple[str, ...] = ()

    @property
    def event_kinds(self) -> dict[str, str]:
        """{event name: request.Event kind} for the adapter's parser."""
        return {event.name: event.kind for event in self.events}

    @property
    def tools(self) -> frozenset[str]:
        """Every tool name the adapter judges."""
        return self.write_tools | self.read_tools | self.shell_tools

    def event(self, kind: str, action: str | None = None) -> HookEvent | None:
        """The first installed event of `kind` (that can carry `action`, when given: Cursor's
        events each imply one); None when the host has none."""
        return next((event for event in self.events if event.kind == kind
                     and (action is None or event.action in (None, action))), None)


_CLAUDE_LOADS = (".claude/settings.json", ".claude/settings.local.json")
_COPILOT_DENY = ('{"permissionDecision":"deny","permissionDecisionReason":"git correx could '
                 'not start, so this call is blocked (fail closed)","decision":"block",'
                 '"reason":"git correx could not start (fail closed)"}')

HOSTS: dict[str, Host] = {host.name: host for host in (
    Host("claude-code", "Claude Code", "claude_code", ".claude/settings.json", _CLAUDE_LOADS,
         (HookEvent("PreToolUse", Event.PRE_TOOL,
                    "Write|Edit|MultiEdit|NotebookEdit|Read|Bash"),
          HookEvent("PostToolUse", Event.POST_TOOL, "Bash"),
          HookEvent("Stop", Event.STOP)),
         write_tools=frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"}),
         read_tools=frozenset({"Read"}), shell_tools=frozenset({"Bash"}),
         stop_message_keys=("last_assistant_message",)),
    Host("codex", "Codex", "codex", ".codex/hooks.json", (".codex/hooks.json",),
         (HookEvent("PreToolUse", Event.PRE_TOOL,
                    "apply_patch|Edit|Write|Bash|shell|exec_command|local_shell"),
          HookEvent("PostToolUse", Event.POST_TOOL, "Bash|shell|exec_command|local_shell"),
          HookEvent("Stop", Event.STOP)),
         write_tools=frozenset({"apply_patch"}),
         shell_tools=frozenset({"Bash", "shell", "exec_command", "local_shell"}),
         matcher_aliases=frozenset({"Edit", "Write"}),
         stop_message_keys=("last_assistant_message", "last-assistant-message")),
    Host("gemini", "Gemini CLI", "gemini", ".gemini/settings.json", (".gemini/settings.json",),
         (HookEvent("BeforeTool", Event.PRE_TOOL,
                    "write_file|replace|edit|read_file|run_shell_command"),
          HookEvent("AfterTool", Event.POST_TOOL, "run_shell_command"),
          HookEvent("AfterAgent", Event.STOP)),
         write_tools=frozenset({"write_file", "replace", "edit"}),
         read_tools=frozenset({"read_file"}), shell_tools=frozenset({"run_shell_command"}),
         stop_message_keys=("prompt_response",)),
    Host("cursor", "Cursor", "cursor", ".cursor/hooks.json",
         (".cursor/hooks.json", *_CLAUDE_LOADS),
         (HookEvent("beforeShellExecution", Event.PRE_TOOL, action=Action.SHELL),
          HookEvent("beforeReadFile", Event.PRE_TOOL, action=Action.READ),
          HookEvent("afterFileEdit", Event.POST_TOOL, action=Action.WRITE),
          HookEvent("afterShellExecution", Event.POST_TOOL, action=Action.SHELL),
          HookEvent("stop", Event.STOP)),
         foreign_switch="turn off Cursor Settings → Rules, Skills, Subagents → Include "
                        "third-party Plugins, Skills, and other configs"),
    Host("copilot-cli", "GitHub Copilot CLI", "copilot_cli", ".github/hooks/git-correx.json",
         (".github/hooks/*.json", ".github/copilot/settings.json",
          ".github/copilot/settings.local.json", *_CLAUDE_LOADS),
         (HookEvent("preToolUse", Event.PRE_TOOL),
          HookEvent("postToolUse", Event.POST_TOOL),
          HookEvent("agentStop", Event.STOP, timeout=600)),
         write_tools=frozenset({"create", "edit"}), read_tools=frozenset({"view"}),
         shell_tools=frozenset({"bash", "powershell", "write_bash"}),
         start_failure=f"printf '%s\\n' '{_COPILOT_DENY}'"),
)}

AGENTS: tuple[str, ...] = tuple(HOSTS)
