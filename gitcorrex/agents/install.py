"""`git correx hooks install --agent NAME`: the agent's own hook configuration, merged in.

Each agent reads hooks from a project file in its own format (the one table, hosts.py):
Claude Code `.claude/settings.json`, Codex `.codex/hooks.json`, Gemini CLI
`.gemini/settings.json`, Cursor `.cursor/hooks.json`, Copilot CLI
`.github/hooks/git-correx.json`. Every agent's hooks judge shell calls before they run (a call
that runs a decision reserved to people is denied: agents/shell_calls.py) as well as file
calls, and shell calls again after they ran. Installing merges our entries into that file and keeps
everything else in it (other settings, other hooks); an entry that already runs
`assess --hook` is replaced, so installing twice changes nothing. A file that is not a JSON
object is never overwritten (exit 2 naming it).

Which file, and which command. A host with a *local* settings file that never leaves this
machine (`LOCAL_FILES`: Claude Code's `.claude/settings.local.json`) gets it by default,
kept out of git (`info/exclude`, when nothing ignores it yet), with the installing
interpreter pinned and `|| exit 2`: uninstalling git-correx or editing PATH blocks every
call instead of turning the gate off. A file meant to be committed (`--shared`, or a host
without a local file) gets `portable_command`: `git correx` found through PATH, no path of
this machine in it; on a teammate's machine without git-correx one line saying what is
missing and how to install it, exit 1 — a non-blocking hook error in every host, so they
are told, not stopped at every tool call — while the clone that ran the install still
fails closed (docs/agents/README.md, "Sharing the hooks with a team").
"""

from __future__ import annotations

import json
import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gitcorrex.agents.hosts import HOSTS, HookEvent
from gitcorrex.errors import ConfigError

if TYPE_CHECKING:
    from gitcorrex.git import Repository

MARKER = "assess --hook "
# the hook's entry, run by the pinned interpreter: nothing imported from the project directory
LAUNCH = ("import sys; sys.path[:1] = [p for p in sys.path[:1] if p]; "
          "from gitcorrex.cli import main; main()")
# hosts with a settings file of their own that is never committed (checked in their docs:
# Codex, Gemini CLI and Cursor read only user-level and project files)
LOCAL_FILES: dict[str, str] = {"claude-code": ".claude/settings.local.json"}
INSTALL_LINE = "pipx install git-correx"
# under the common git directory: this clone's person installed agent hooks (never committed)
INSTALLED_HERE = ("correx", "agent-hooks-installed")
_COMMAND_HOOK = {"type": "command"}
_VERSIONED = ("cursor", "copilot-cli")  # files that carry `"version": 1`
# (file, {event: matcher or None}) per agent, from the one table; None: no matcher
LAYOUTS: dict[str, tuple[str, dict[str, str | None]]] = {
    host.name: (host.settings, {event.name: event.matcher for event in host.events})
    for host in HOSTS.values()}


@dataclass(frozen=True)
class AgentInstall:
    """`action`: installed (new file), updated, unchanged, or printed (nothing written);
    `shared`: the file is meant to be committed (portable command); `excluded`: the exclude
    file that now keeps the local file out of git (None when git already ignored it)."""

    agent: str
    path: str
    action: str
    text: str
    shared: bool = True
    excluded: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {"agent": self.agent, "path": self.path, "action": self.action,
                "scope": "shared" if self.shared else "local", "excluded": self.excluded}


def install_agent(repo: Repository, agent: str, *, python: str, write: bool,
                  shared: bool = False) -> AgentInstall:
    """Merge our hooks into the agent's local file (the shared one with `shared`, or when
    the host has none) under the work tree; `write=False` prints."""
    shared = shared or agent not in LOCAL_FILES
    relative = HOSTS[agent].settings if shared else LOCAL_FILES[agent]
    path = repo.root / relative
    existing = _read(path)
    command = portable_command(agent) if shared else hook_command(python, agent)
    text = settings_text(existing or {}, agent, command)
    if not write:
        return AgentInstall(agent, str(path), "printed", text, shared)
    excluded = None if shared else _keep_out_of_git(repo, relative)
    _mark_installed_here(repo)
    if existing is not None and path.read_text(encoding="utf-8") == text:
        return AgentInstall(agent, str(path), "unchanged", text, shared, excluded)
    _write_atomically(path, text)
    action = "updated" if existing is not None else "installed"
    return AgentInstall(agent, str(path), action, text, shared, excluded)


def settings_text(document: dict[str, Any], agent: str, command: str) -> str:
    """The exact bytes install writes for `document` (what `own_hook_files` compares)."""
    merged = merge_hooks(document, agent, HOSTS[agent].events, command)
    return json.dumps(merged, indent=2) + "\n"


def hook_command(python: str, agent: str) -> str:
    """The local file's command: this interpreter, our entry, the agent's protocol (handed
    to the resident process when one runs: cli/resident_client.py). `-c` with the working
    directory taken off `sys.path` first (as the git hooks' launcher does): `python -m`
    would put the project directory first on it, and a `json.py` written there would run
    inside the hook. `|| exit 2` (or the host's own blocking answer: hosts.py
    `start_failure`) blocks even when the interpreter itself cannot start (127 would let
    the tool run in every agent)."""
    return (f"{shlex.quote(python)} -c {shlex.quote(LAUNCH)} {MARKER}{agent} "
            f"|| {HOSTS[agent].start_failure}")


def portable_command(agent: str) -> str:
    """The committed file's command: `git correx` through PATH, the same text on every
    machine (so the file is byte-for-byte what `own_hook_files` expects). Without
    git-correx, one line on stderr: on a teammate's clone exit 1 (every host runs the tool
    and shows the line), never a blocked call; on the clone where someone ran `hooks
    install` (`INSTALLED_HERE` in its git directory) the host's blocking answer
    (`start_failure`: exit 2, or Copilot CLI's deny), so uninstalling git-correx or
    editing PATH does not turn the gate off there. A `git-correx` that is found but fails
    (its interpreter gone) ends in the same blocking answer, as the local command does."""
    marker = "/".join(INSTALLED_HERE)
    failure = HOSTS[agent].start_failure  # `exit 2`, or an answer printed before `exit`
    block = failure if failure.startswith("exit") else f"{failure}; exit"
    gone = (f"git correx: git-correx is gone from PATH on the clone that installed the "
            f"{agent} hook, so this call is blocked; reinstall it ({INSTALL_LINE}), or "
            f"remove .git/{marker} to turn the hook off here")
    missing = (f"git correx: git-correx is not on PATH, so the {agent} hook of this "
               f"repository is off here; install it: {INSTALL_LINE}")
    here = ("d=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null) && "
            f'[ -e "$d/{marker}" ]')
    return (f"command -v git-correx >/dev/null 2>&1 || {{ if {here}; then echo "
            f"{shlex.quote(gone)} >&2; {block}; fi; "
            f"echo {shlex.quote(missing)} >&2; exit 1; "
            f"}}; git correx {MARKER}{agent} || {failure}")


def _mark_installed_here(repo: Repository) -> None:
    """Record in the git directory (never committed) that this clone installed agent hooks:
    the portable command then fails closed here when git-correx goes missing."""
    path = repo.common_dir.joinpath(*INSTALLED_HERE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("git correx hooks install --agent ran in this clone: the portable "
                    "agent hooks block when git-correx is missing\n", encoding="utf-8")


def _keep_out_of_git(repo: Repository, relative: str) -> str | None:
    """Make sure git ignores the local file: refuse a tracked one (it is shared, and would
    carry this machine's interpreter to every clone), add it to `info/exclude` (never a
    tracked `.gitignore`) unless git ignores it already; the exclude file's path or None."""
    from gitcorrex.git import append_excludes, is_tracked, unignored_patterns

    if is_tracked(repo, relative):
        raise ConfigError(f"{relative} is tracked by git: it would carry this machine's "
                          "interpreter path to every clone; left untouched",
                          hint=f"untrack it (`git rm --cached {relative}`), or install "
                               "the portable command with --shared")
    if not unignored_patterns(repo, ["/" + relative]):
        return None
    return str(append_excludes(repo, ["/" + relative],
                               why="the agent's local hook settings (git correx hooks install)"))


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
