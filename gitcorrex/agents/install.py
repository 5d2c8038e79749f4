"""`git correx hooks install --agent NAME`: the agent's own hook configuration, merged in.

Each agent reads hooks from a project file in its own format (the one table, hosts.py):
Claude Code `.claude/settings.json`, Codex `.codex/hooks.json`, Gemini CLI
`.gemini/settings.json`, Cursor `.cursor/hooks.json`, Copilot CLI
`.github/hooks/git-correx.json`. Every agent's hooks judge shell calls before they run (a call
that runs a decision reserved to people is denied: agents/shell_calls.py) as well as file
calls, and shell calls again after they ran. Installing merges our entries into that file and keeps
everything else in it (other settings, other hooks); an entry that already runs
`assess --hook` is replaced, so installing twice changes nothing. A file that is not a JSON
object is never overwritten (exit 2 naming it). The command embeds the installing
interpreter (`python -m gitcorrex`), as the git hooks do: no reliance on PATH.
"""

from __future__ import annotations

import json
import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitcorrex.agents.hosts import HOSTS, HookEvent
from gitcorrex.errors import ConfigError

MARKER = "assess --hook "
_COMMAND_HOOK = {"type": "command"}
_VERSIONED = ("cursor", "copilot-cli")  # files that carry `"version": 1`
# (file, {event: matcher or None}) per agent, from the one table; None: no matcher
LAYOUTS: dict[str, tuple[str, dict[str, str | None]]] = {
    host.name: (host.settings, {event.name: event.matcher for event in host.events})
    for host in HOSTS.values()}


@dataclass(frozen=True)
class AgentInstall:
    """`action`: installed (new file), updated, unchanged, or printed (nothing written)."""

    agent: str
    path: str
    action: str
    text: str

    def as_dict(self) -> dict[str, str]:
        return {"agent": self.agent, "path": self.path, "action": self.action}


def install_agent(root: Path, agent: str, *, python: str, write: bool) -> AgentInstall:
    """Merge our hooks into the agent's project file under `root`; `write=False` prints."""
    host = HOSTS[agent]
    path = root / host.settings
    existing = _read(path)
    merged = merge_hooks(existing or {}, agent, host.events, hook_command(python, agent))
    text = json.dumps(merged, indent=2) + "\n"
    if not write:
        return AgentInstall(agent, str(path), "printed", text)
    if existing is not None and path.read_text(encoding="utf-8") == text:
        return AgentInstall(agent, str(path), "unchanged", text)
    _write_atomically(path, text)
    return AgentInstall(agent, str(path), "updated" if existing is not None else "installed",
                        text)


def hook_command(python: str, agent: str) -> str:
    """The shell command the agent runs: this interpreter, our module, the agent's protocol;
    `|| exit 2` (or the host's own blocking answer: hosts.py `start_failure`) blocks even
    when the interpreter itself cannot start (127 would let the tool run in every agent)."""
    return (f"{shlex.quote(python)} -m gitcorrex {MARKER}{agent} "
            f"|| {HOSTS[agent].start_failure}")


def merge_hooks(document: dict[str, Any], agent: str, events: tuple[HookEvent, ...],
                command: str) -> dict[str, Any]:
    """`document` with one entry of ours per event; other entries and keys kept in order."""
    merged = dict(document)
    hooks = merged.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError("the agent's settings have a `hooks` key that is not an object",
                          hint="fix or remove that key by hand, then install again")
    hooks = dict(hooks)
    for event in events:
        entries = [kept for entry in _listed(hooks.get(event.name, []), event.name)
                   if (kept := _without_ours(entry)) is not None]
        entries.append(_entry(agent, event, command))
        hooks[event.name] = entries
    merged["hooks"] = hooks
    if agent in _VERSIONED:
        merged.setdefault("version", 1)
    return merged


def _entry(agent: str, event: HookEvent, command: str) -> dict[str, Any]:
    matcher = event.matcher
    if agent == "cursor":
        return {"command": command}
    if agent == "copilot-cli":  # flat entries; `bash` is the command on Linux and macOS
        timeout = {} if event.timeout is None else {"timeoutSec": event.timeout}
        return {**_COMMAND_HOOK, "bash": command, **timeout}
    hook: dict[str, Any] = {**_COMMAND_HOOK, "command": command}
    if agent == "gemini":
        hook["name"] = "git-correx"
    entry: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
    entry["hooks"] = [hook]
    return entry


def _listed(entries: object, event: str) -> list[object]:
    if not isinstance(entries, list):
        raise ConfigError(f"the agent's settings have hooks.{event} that is not an array",
                          hint="fix or remove that key by hand, then install again")
    return entries


def _without_ours(entry: object) -> object | None:
    """`entry` without the hooks that run git correx's `assess --hook` (an earlier install);
    None when nothing of someone else's is left in it."""
    if not isinstance(entry, dict):
        return entry
    if _is_ours(entry.get("command")) or _is_ours(entry.get("bash")):
        return None
    inner = entry.get("hooks")
    if not isinstance(inner, list):
        return entry
    kept = [hook for hook in inner
            if not (isinstance(hook, dict) and _is_ours(hook.get("command")))]
    if not kept:
        return None
    return {**entry, "hooks": kept}


def _is_ours(command: object) -> bool:
    if not isinstance(command, str) or MARKER not in command:
        return False
    return "gitcorrex" in command.replace("-", "") or "git correx" in command


def _read(path: Path) -> dict[str, Any] | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it ({exc})",
                          hint="fix its permissions or encoding, then install again") from None
    try:
        document = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc}); left untouched",
                          hint="fix the file by hand (or move it away), then install again"
                          ) from None
    if not isinstance(document, dict):
        raise ConfigError(f"{path}: not a JSON object; left untouched",
                          hint="fix the file by hand (or move it away), then install again")
    return document


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)
