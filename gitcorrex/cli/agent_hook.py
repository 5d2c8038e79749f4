"""`git correx assess --hook AGENT`'s entry: the agent runner inside the one error boundary.

Served by cli/fast.py without click (every tool call of an agent session runs it) and by the
`assess` command. Stop signals raise inside the boundary (cli/boundary.py), and every failure
— a payload the agent would not send, an environmental fault, a signal, a bug — is described
by the boundary's own mapping and then answered in the agent's blocking format (exit 2):
for every agent any other exit code lets the tool run.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr
from pathlib import Path

from gitcorrex.agents.request import HookOptions, Reply
from gitcorrex.agents.run import BLOCK_EXIT, answer
from gitcorrex.cli.boundary import exit_code_for, stop_signals_raise

FAILED = "git correx could not assess this tool call, so it is blocked (fail closed):\n"


def run_agent_hook(agent: str, options: HookOptions) -> int:
    """Answer the hook call on stdin in `agent`'s protocol; the exit code it acts on."""
    with stop_signals_raise():
        try:
            raw = sys.stdin.buffer.read()
            reply = answer(agent, raw, options, default_cwd=Path.cwd(), describe=describe)
        except BaseException as exc:  # outside the adapter: still the blocking answer
            reply = Reply(BLOCK_EXIT, stderr=describe(exc))
    try:
        sys.stdout.write(reply.stdout)
        sys.stderr.write(reply.stderr)
        sys.stdout.flush()
    except BaseException:
        return BLOCK_EXIT  # the answer could not be given: block
    return reply.exit_code


def fail_closed(code: int) -> int:
    """An agent hook that ended with any other code than 0 or 2 before its runner could
    answer (a stop signal during start-up): the agent would let the tool run, so block."""
    sys.stderr.write(f"{FAILED}  the hook ended before it could answer (it would exit "
                     f"{code})\n")
    return BLOCK_EXIT


def describe(exc: BaseException) -> str:
    """What the boundary would report for `exc` (its line and hint, or the traceback of a
    bug), indented under the fail-closed notice, with the exit code it maps to."""
    captured = io.StringIO()
    with redirect_stderr(captured):
        code = exit_code_for(exc)
    text = captured.getvalue().rstrip("\n") or f"git correx: {type(exc).__name__}"
    body = "".join(f"  {line}\n" for line in text.split("\n"))
    return f"{FAILED}{body}  (as a command this would exit {code})\n"
