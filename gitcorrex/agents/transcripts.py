"""The completion claims in agents' own local transcripts, for `git correx agents history`.

Claude Code keeps one JSON Lines file per conversation in
`~/.claude/projects/<cwd with every character but letters and digits as "-">/<id>.jsonl`
(`CLAUDE_CONFIG_DIR` moves `~/.claude`): lines of `type` "user" (a person's prompt: its
`message.content` a string or text blocks; a tool result: `tool_result` blocks) and
"assistant" (`message.content` blocks: `text`, `tool_use` with `name`), each with
`timestamp`, `cwd` and `sessionId`; `isSidechain` marks a subagent's lines. A turn ends at
the next prompt of a person, or at the end of the file.

Codex keeps `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` (`CODEX_HOME` moves `~/.codex`):
lines `{"timestamp", "type", "payload"}`; `session_meta` (first: `id`, `cwd`),
`turn_context` (`cwd`), `response_item` (a `message` with `role` and `output_text`
blocks, a `function_call` or `custom_tool_call` with `name`), and `event_msg`
(`user_message` starts a turn, `task_complete` ends it, with `last_agent_message`).

A claim is the final assistant text of a turn that `claims.py` reads as "done". With it we
keep when the conversation started and when its agent last edited a file through a file
tool before the claim (Claude Code's Write/Edit/MultiEdit/NotebookEdit, Codex's
apply_patch): an edit after the last pass means the pass is stale even when nothing
recorded the new tree. Lines that are not JSON, or not shaped as above, are skipped: a
transcript is the agent's file, read as evidence, never trusted to be well formed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from gitcorrex.agents.claims import is_completion_claim

CLAUDE_EDIT_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
CODEX_EDIT_TOOLS = frozenset({"apply_patch"})
EXCERPT = 160


@dataclass(frozen=True)
class Claim:
    """One "done" at the end of a turn: who, when, in which conversation and directory."""

    agent: str
    conversation: str
    at: datetime
    cwd: str
    message: str
    started: datetime
    last_edit: datetime | None


def claude_claims(projects: Path, root: Path) -> Iterator[Claim]:
    """The claims of Claude Code's conversations run in `root` or below."""
    escaped = re.sub(r"[^A-Za-z0-9]", "-", str(root))
    if not projects.is_dir():
        return
    for folder in sorted(projects.iterdir()):
        if folder.name == escaped or folder.name.startswith(escaped + "-"):
            for path in sorted(folder.glob("*.jsonl")):
                yield from _ClaudeTurns(path.stem, root).read(path)


def codex_claims(sessions: Path, root: Path) -> Iterator[Claim]:
    """The claims of Codex's sessions run in `root` or below."""
    if not sessions.is_dir():
        return
    for path in sorted(sessions.glob("[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]/rollout-*.jsonl")):
        yield from _CodexTurns(path.stem, root).read(path)


class _Turns:
    """What both readers keep while walking one file."""

    agent = ""

    def __init__(self, conversation: str, root: Path) -> None:
        self.conversation, self.root = conversation, root
        self.cwd = ""
        self.started: datetime | None = None
        self.last_edit: datetime | None = None
        self.text: tuple[datetime, str] | None = None  # the turn's last assistant text

    def read(self, path: Path) -> Iterator[Claim]:
        for line in _lines(path):
            at = parse_time(line.get("timestamp"))
            if at is None:
                continue
            self.started = self.started or at
            yield from self.take(line, at)
        yield from self.end_turn()

    def take(self, line: dict[str, Any], at: datetime) -> Iterator[Claim]:
        raise NotImplementedError

    def end_turn(self, message: str | None = None, at: datetime | None = None
                 ) -> Iterator[Claim]:
        """The turn's claim, if its final text claims completion and it ran under root."""
        final = (at, message) if message is not None and at is not None else self.text
        self.text = None
        if final is None or self.started is None or not self._inside(self.cwd):
            return
        when, text = final
        if is_completion_claim(text):
            yield Claim(self.agent, self.conversation, when, self.cwd,
                        " ".join(text.split())[:EXCERPT], self.started, self.last_edit)

    def _inside(self, cwd: str) -> bool:
        try:
            return bool(cwd) and Path(cwd).resolve().is_relative_to(self.root)
        except (OSError, ValueError):
            return False


class _ClaudeTurns(_Turns):
    agent = "claude-code"

    def take(self, line: dict[str, Any], at: datetime) -> Iterator[Claim]:
        if line.get("isSidechain") is True:
            return
        self.cwd = _text(line.get("cwd")) or self.cwd
        message = line.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if line.get("type") == "user" and _is_prompt(content):
            yield from self.end_turn()
        elif line.get("type") == "assistant" and isinstance(content, list):
            blocks = [block for block in content if isinstance(block, dict)]
            if any(b.get("type") == "tool_use" and b.get("name") in CLAUDE_EDIT_TOOLS
                   for b in blocks):
                self.last_edit = at
            text = "\n".join(_text(b.get("text")) for b in blocks if b.get("type") == "text")
            if text.strip():
                self.text = (at, text)


class _CodexTurns(_Turns):
    agent = "codex"

    def take(self, line: dict[str, Any], at: datetime) -> Iterator[Claim]:
        kind, payload = line.get("type"), line.get("payload")
        if not isinstance(payload, dict):
            return
        if kind in ("session_meta", "turn_context"):
            self.cwd = _text(payload.get("cwd")) or self.cwd
            self.conversation = _text(payload.get("id")) or self.conversation
        elif kind == "response_item":
            self._item(payload, at)
        elif kind == "event_msg" and payload.get("type") == "user_message":
            self.text = None
        elif kind == "event_msg" and payload.get("type") == "task_complete":
            last = payload.get("last_agent_message")
            yield from self.end_turn(last if isinstance(last, str) else None, at)

    def _item(self, payload: dict[str, Any], at: datetime) -> None:
        if payload.get("type") in ("function_call", "custom_tool_call") and \
                payload.get("name") in CODEX_EDIT_TOOLS:
            self.last_edit = at
        if payload.get("type") == "message" and payload.get("role") == "assistant":
            blocks = payload.get("content")
            text = "\n".join(_text(b.get("text")) for b in blocks if isinstance(b, dict)) \
                if isinstance(blocks, list) else ""
            if text.strip():
                self.text = (at, text)


def parse_time(value: object) -> datetime | None:
    """An ISO 8601 time as an aware UTC datetime; None when it is not one."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.astimezone(timezone.utc) if parsed.tzinfo else \
        parsed.replace(tzinfo=timezone.utc)


def _is_prompt(content: object) -> bool:
    """A person's prompt, not a tool's result handed back."""
    if isinstance(content, str):
        return True
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "text" for b in content)


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    try:
        with path.open("rb") as handle:
            for raw in handle:
                try:
                    line = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(line, dict):
                    yield line
    except OSError:
        return


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
