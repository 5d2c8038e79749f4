"""What a repository has wired for a host: every hook entry in the files the host loads.

A host runs the hooks of every file it loads (hosts.py `loads`): Cursor and Copilot CLI also
run Claude Code's `.claude/settings*.json`. So a repository wired for two agents runs git
correx twice on one host's calls — double registration — and a file that is not valid JSON
is a broken install. Reads files only; writes nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitcorrex.agents.hosts import HOSTS, Host
from gitcorrex.errors import ConfigError

_OURS = re.compile(r"assess --hook ([a-z-]+)")
_COMMAND_KEYS = ("command", "bash")


@dataclass(frozen=True)
class HookEntry:
    """One command a settings file runs on `event`: `agent` the `--hook` it names (None:
    not git correx's, or no longer: a command replaced by hand); `cwd` and `env` what the
    entry adds (Copilot CLI: its directory, relative to the repository, and variables)."""

    file: str
    event: str
    matcher: str | None
    command: str
    agent: str | None
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()

    def selects(self, tool: str | None) -> bool:
        """Whether the host runs this entry for `tool` (no matcher, or a tool-less event:
        always; a matcher is a regex the whole name must match)."""
        if self.matcher in (None, "", "*") or tool is None:
            return True
        try:
            return re.fullmatch(self.matcher, tool) is not None
        except re.error:
            return False


def own_files(host: Host) -> tuple[str, ...]:
    """The files `host` loads in its own format: not those kept beside another host's
    settings file (Cursor runs `.claude/settings*.json` in Claude Code's format)."""
    others = {pattern for other in HOSTS.values() if other is not host
              for pattern in other.loads
              if Path(pattern).parent == Path(other.settings).parent}
    return tuple(pattern for pattern in host.loads if pattern not in others)


def loaded_entries(root: Path, patterns: tuple[str, ...]) -> list[HookEntry]:
    """Every hook entry of the files under `root` matching `patterns`, in order;
    ConfigError naming the file for one that is not a JSON object with an object `hooks`."""
    entries: list[HookEntry] = []
    for path in _matching(root, patterns):
        hooks = _hooks_of(path)
        relative = path.relative_to(root).as_posix()
        for event, listed in hooks.items():
            for item in listed if isinstance(listed, list) else []:
                entries += _entries(relative, event, item)
    return entries


def wired_files(root: Path, host: Host) -> dict[str, set[str]]:
    """{file the host loads: the `--hook` agents its git correx entries name}; files with
    none left out. More than one file: the host runs git correx more than once."""
    wired: dict[str, set[str]] = {}
    for entry in loaded_entries(root, host.loads):
        if entry.agent is not None:
            wired.setdefault(entry.file, set()).add(entry.agent)
    return wired


def hooks_turned_off(root: Path, host: Host) -> list[str]:
    """The files `host` loads that turn every hook off (`"disableAllHooks": true`, which
    Claude Code and Copilot CLI honour): one line an agent could write to end the gate."""
    found = []
    for path in _matching(root, host.loads):
        document = _document(path)
        if isinstance(document, dict) and document.get("disableAllHooks") is True:
            found.append(path.relative_to(root).as_posix())
    return found


def _matching(root: Path, patterns: tuple[str, ...]) -> list[Path]:
    found: list[Path] = []
    for pattern in patterns:
        for path in sorted(root.glob(pattern)):
            if path.is_file() and path not in found:
                found.append(path)
    return found


def _document(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read as JSON ({exc})",
                          hint="fix the file, or move it away and install again") from None


def _hooks_of(path: Path) -> dict[str, Any]:
    document = _document(path)
    hooks = document.get("hooks", {}) if isinstance(document, dict) else None
    if not isinstance(hooks, dict):
        raise ConfigError(f"{path}: not a JSON object with a `hooks` object",
                          hint="fix the file, or move it away and install again")
    return hooks


def _entries(file: str, event: str, item: object) -> list[HookEntry]:
    """The commands of one listed item: flat (`command`/`bash`) or nested (`hooks`)."""
    if not isinstance(item, dict):
        return []
    matcher = item.get("matcher") if isinstance(item.get("matcher"), str) else None
    nested = item.get("hooks")
    inner: list[object] = nested if isinstance(nested, list) else [item]
    found = []
    for hook in inner:
        if not isinstance(hook, dict):
            continue
        command = next((hook[key] for key in _COMMAND_KEYS if isinstance(hook.get(key), str)),
                       None)
        if command is not None:
            agent = _OURS.search(command)
            cwd = hook.get("cwd") if isinstance(hook.get("cwd"), str) else None
            variables = hook.get("env")
            env: dict[Any, Any] = variables if isinstance(variables, dict) else {}
            found.append(HookEntry(file, event, matcher, command,
                                   agent.group(1) if agent else None, cwd,
                                   tuple((str(k), str(v)) for k, v in env.items())))
    return found
