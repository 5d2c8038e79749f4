"""`git correx assess --hook AGENT`'s entry: the agent runner inside the stop-signal guard.

Answered by cli/startup.py without click (every tool call of an agent session runs it) and
by the `assess` command, both through `answer_assess_hook`. Stop signals raise inside the
guard (cli/stop_signals.py), and every failure — a payload the agent would not send, an
environmental fault, a signal, a bug — is mapped by the one boundary (gitcorrex/failure.py)
and then answered in the agent's blocking format (exit 2, agents/run.py words it): for every
agent any other exit code lets the tool run.
"""

from __future__ import annotations

import sys
from contextlib import suppress
from pathlib import Path

from gitcorrex.agents.request import HookOptions
from gitcorrex.agents.run import BLOCK_EXIT, FAILED, answer, fail_closed_reply, failure_reason
from gitcorrex.cli.stop_signals import stop_signals_raise
from gitcorrex.failure import failure_of


def answer_assess_hook(*, hook: str, action: str | None, paths: tuple[str, ...],
                       stage: str | None, session: str | None, record_all: bool,
                       as_json: bool) -> int:
    """`assess --hook AGENT` with assess's parameters: exit 0 or 2 and nothing else, since
    any other code would let the tool call proceed. An action, paths or `--json` mean the
    agent's settings are wrong: block."""
    import os

    if action or paths or as_json:
        sys.stderr.write("git correx could not assess this tool call, so it is blocked: "
                         "--hook takes no action, paths or --json (the call comes as JSON "
                         "on stdin)\n")
        return BLOCK_EXIT
    options = HookOptions(stage=stage, session=session or os.environ.get("CORREX_SESSION")
                          or None, record_all=record_all)
    return run_agent_hook(hook, options)


def run_agent_hook(agent: str, options: HookOptions) -> int:
    """Answer the hook call on stdin in `agent`'s protocol; the exit code it acts on."""
    with stop_signals_raise():
        try:
            raw = sys.stdin.buffer.read()
            reply = answer(agent, raw, options, default_cwd=Path.cwd())
        except BaseException as exc:  # outside the adapter: still the blocking answer
            reply = fail_closed_reply(failure_reason(exc))
    try:
        sys.stdout.write(reply.stdout)
        sys.stderr.write(reply.stderr)
        sys.stdout.flush()
    except BaseException as exc:  # the answer could not be given: block
        return fail_closed(failure_of(exc).code)
    return reply.exit_code


def fail_closed(code: int) -> int:
    """An agent hook that ended with any other code than 0 or 2 before it could answer (a
    stop signal during start-up, an answer it could not write): the agent would let the tool
    run, so block."""
    with suppress(BaseException):
        sys.stderr.write(f"{FAILED}  the hook ended before it could answer (it would exit "
                         f"{code})\n")
    return BLOCK_EXIT
