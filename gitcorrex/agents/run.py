"""The one runner for every agent hook call, and it fails closed.

Let the agent's adapter turn the payload into a request, judge it, and answer in that
agent's format (cli/agent_hook.py reads stdin and writes the answer). Whatever goes wrong on
the way — a payload the agent would not send, no repository, a profile that does not parse,
a full disk, a bug — is mapped by the one boundary (gitcorrex/failure.py: the code and the
words) and becomes that agent's blocking answer, because for every agent a crashing hook
(any exit but 2) lets the tool run.
Click-free and import-light: this runs on every tool call of an agent session.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from gitcorrex.agents.hosts import HOSTS
from gitcorrex.agents.request import HookOptions, Reply
from gitcorrex.failure import Failure, failure_of

BLOCK_EXIT = 2
FAILED = "git correx could not assess this tool call, so it is blocked (fail closed):\n"


def answer(agent: str, raw: bytes, options: HookOptions, *, default_cwd: Path) -> Reply:
    """The reply to one hook call; never raises. A failure is the one boundary's (see
    `failure_reason`) in the agent's blocking format."""
    try:
        adapter = import_module(f"gitcorrex.agents.{HOSTS[agent].adapter}")
    except BaseException as exc:  # an unknown agent or a broken install: still block
        return fail_closed_reply(_worded(exc))
    try:
        from gitcorrex.agents.judge import judge
        from gitcorrex.clock import now_utc

        request = adapter.parse(raw)
        verdict = judge(request, options, default_cwd=default_cwd, clock=now_utc)
        reply: Reply = adapter.render(request, verdict)
        return reply
    except BaseException as exc:  # fail closed, whatever went wrong
        failed: Reply = adapter.fail(_worded(exc))
        return failed


def fail_closed_reply(text: str) -> Reply:
    """The blocking answer every agent understands without parsing: exit 2, `text` on stderr."""
    return Reply(BLOCK_EXIT, stderr=text)


def failure_reason(exc: BaseException, failure: Failure | None = None) -> str:
    """Why the call could not be judged, in the one boundary's words (gitcorrex/failure.py:
    its line and hint, a signal's name or a bug's traceback) with the exit code a command
    would give; the call is blocked all the same (fail closed). `failure`: how the boundary
    mapped `exc` when the caller already asked it (cli/agent_hook.py, for click's outcomes)."""
    failure = failure_of(exc) if failure is None else failure
    text = failure.text.rstrip("\n") or f"git correx: {type(exc).__name__}"
    body = "".join(f"  {line}\n" for line in text.split("\n"))
    return f"{FAILED}{body}  (as a command this would exit {failure.code})\n"


def _worded(exc: BaseException) -> str:
    """`failure_reason`, or the exception's repr when even that fails (a broken install)."""
    try:
        return failure_reason(exc)
    except BaseException:
        return f"{FAILED}  {exc!r}\n"
