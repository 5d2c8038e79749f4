"""The one runner for every agent hook call, and it fails closed.

Let the agent's adapter turn the payload into a request, judge it, and answer in that
agent's format (cli/agent_hook.py reads stdin and writes the answer inside the CLI's error
boundary). Whatever goes wrong on the way — a payload the agent would not send, no
repository, a profile that does not parse, a full disk, a bug — becomes that agent's
blocking answer, because for every agent a crashing hook (any exit but 2) lets the tool run.
Click-free and import-light: this runs on every tool call of an agent session.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.agents.request import HookOptions, Reply

if TYPE_CHECKING:
    from datetime import datetime

AGENTS = ("claude-code", "codex", "gemini", "cursor")
_MODULES = {"claude-code": "claude_code", "codex": "codex", "gemini": "gemini",
            "cursor": "cursor"}
BLOCK_EXIT = 2


def answer(agent: str, raw: bytes, options: HookOptions, *, default_cwd: Path,
           describe: Callable[[BaseException], str] | None = None) -> Reply:
    """The reply to one hook call; never raises. `describe` words a failure (the CLI passes
    its error boundary's; default: agents/reasons.py)."""
    words = describe or _failure_text
    try:
        adapter = import_module(f"gitcorrex.agents.{_MODULES[agent]}")
    except BaseException as exc:  # an unknown agent or a broken install: still block
        return Reply(BLOCK_EXIT, stderr=_worded(words, exc))
    try:
        from gitcorrex.agents.judge import judge

        request = adapter.parse(raw)
        verdict = judge(request, options, default_cwd=default_cwd, clock=_now)
        reply: Reply = adapter.render(request, verdict)
        return reply
    except BaseException as exc:  # fail closed, whatever went wrong
        failed: Reply = adapter.fail(_worded(words, exc))
        return failed


def _worded(describe: Callable[[BaseException], str], exc: BaseException) -> str:
    try:
        return describe(exc)
    except BaseException:
        return _failure_text(exc)


def _failure_text(exc: BaseException) -> str:
    try:
        from gitcorrex.agents.reasons import failure_reason

        return failure_reason(exc)
    except BaseException:
        return f"git correx could not assess this tool call, so it is blocked: {exc!r}\n"


def _now() -> datetime:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc)
