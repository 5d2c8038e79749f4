"""The one runner for every agent hook call, and it fails closed.

Read the payload, let the agent's adapter turn it into a request, judge it, and answer in
that agent's format. Whatever goes wrong on the way — a payload the agent would not send, no
repository, a profile that does not parse, a full disk, a bug — becomes that agent's
blocking answer, because for every agent a crashing hook (any exit but 2) lets the tool run.
Click-free and import-light: this runs on every tool call of an agent session.
"""

from __future__ import annotations

import sys
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

from gitcorrex.agents.request import HookOptions, Reply

if TYPE_CHECKING:
    from datetime import datetime

AGENTS = ("claude-code", "codex", "gemini", "cursor")
_MODULES = {"claude-code": "claude_code", "codex": "codex", "gemini": "gemini",
            "cursor": "cursor"}
BLOCK_EXIT = 2


def answer(agent: str, raw: bytes, options: HookOptions, *, default_cwd: Path) -> Reply:
    """The reply to one hook call; never raises."""
    try:
        adapter = import_module(f"gitcorrex.agents.{_MODULES[agent]}")
    except BaseException as exc:  # an unknown agent or a broken install: still block
        return Reply(BLOCK_EXIT, stderr=_failure_text(exc))
    try:
        from gitcorrex.agents.judge import judge

        request = adapter.parse(raw)
        verdict = judge(request, options, default_cwd=default_cwd, clock=_now)
        reply: Reply = adapter.render(request, verdict)
        return reply
    except BaseException as exc:  # fail closed, whatever went wrong
        failed: Reply = adapter.fail(_failure_text(exc))
        return failed


def run_hook(agent: str, options: HookOptions, *, stdin: BinaryIO | None = None,
             stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Answer the call on stdin; the exit code the agent acts on (0 or 2 and nothing else)."""
    try:
        raw = (stdin or sys.stdin.buffer).read()
        reply = answer(agent, raw, options, default_cwd=Path.cwd())
    except BaseException as exc:
        reply = Reply(BLOCK_EXIT, stderr=_failure_text(exc))
    try:
        (stdout or sys.stdout).write(reply.stdout)
        (stderr or sys.stderr).write(reply.stderr)
    except BaseException:
        return BLOCK_EXIT  # the answer could not be given: block
    return reply.exit_code


def _failure_text(exc: BaseException) -> str:
    try:
        from gitcorrex.agents.reasons import failure_reason

        return failure_reason(exc)
    except BaseException:
        return f"git correx could not assess this tool call, so it is blocked: {exc!r}\n"


def _now() -> datetime:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc)
