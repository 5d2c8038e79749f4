"""`git correx assess --hook AGENT`'s entry: the agent's protocol is the process's boundary.

`main` (cli/__init__.py) hands the process to `answer_agent` before it imports anything else,
so the stop-signal guard is up as early as for any command. Inside it the options are parsed
(cli/startup.py without click: every tool call of an agent session runs it; click for the
forms it leaves to click) and `answer_assess_hook` answers, the function the `assess`
command calls too; every failure — a payload the agent would not send, an environmental
fault, a usage error, a stop signal before or after the runner began, a bug — is mapped by
the one boundary (gitcorrex/failure.py, cli/boundary.py for click's outcomes) for its words
and answered in the agent's blocking format (exit 2, agents/run.py words it): for every
agent any other exit code lets the tool run. Nothing re-maps the code afterwards.
Import-light at module level: what loads before the guard is up cannot be stopped safely.
"""

from __future__ import annotations

import sys
from contextlib import suppress

from gitcorrex.cli.stop_signals import stop_signals_raise

TYPE_CHECKING = False  # no `typing` before the guard is up
if TYPE_CHECKING:
    from collections.abc import Callable

    from gitcorrex.agents.request import HookOptions
    from gitcorrex.model.conclusion import Conclusion


def answer_agent(serve: Callable[[], Conclusion | int]) -> int:
    """Run `serve` (parse the options, run the hook runner: its code is the agent's answer,
    or click's for `-h`) inside the guard; the exit code the agent acts on. A conclusion is
    not an answer (the runner always gives one), so it blocks like a failure."""
    with stop_signals_raise():
        try:
            ended = serve()
            if isinstance(ended, int):
                return ended
            reason = f"the hook ended without an answer ({ended.value})"
        except BaseException as exc:  # the agent's boundary: any failure is its blocking answer
            return _blocked(exc)
        return fail_closed(reason)


def answer_assess_hook(*, hook: str, action: str | None, paths: tuple[str, ...],
                       stage: str | None, session: str | None, record_all: bool,
                       as_json: bool) -> int:
    """`assess --hook AGENT` with assess's parameters: exit 0 or 2 and nothing else, since
    any other code would let the tool call proceed. An action, paths or `--json` mean the
    agent's settings are wrong: block."""
    import os

    from gitcorrex.agents.request import HookOptions

    if action or paths or as_json:
        return fail_closed("--hook takes no action, paths or --json (the call comes as JSON "
                           "on stdin)")
    options = HookOptions(stage=stage, session=session or os.environ.get("CORREX_SESSION")
                          or None, record_all=record_all)
    return run_agent_hook(hook, options)


def run_agent_hook(agent: str, options: HookOptions) -> int:
    """Answer the hook call on stdin in `agent`'s protocol; the exit code it acts on."""
    from pathlib import Path

    from gitcorrex.agents.run import answer, fail_closed_reply, failure_reason
    from gitcorrex.failure import failure_of

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
        return fail_closed(f"the hook ended before it could answer (it would exit "
                           f"{failure_of(exc).code})")
    return reply.exit_code


def fail_closed(reason: str) -> int:
    """An agent hook that could not answer (an answer it could not write, a runner that gave
    none): the agent would let the tool run, so say why and block."""
    from gitcorrex.agents.run import BLOCK_EXIT, FAILED

    with suppress(BaseException):
        sys.stderr.write(f"{FAILED}  {reason}\n")
    return BLOCK_EXIT


def _blocked(exc: BaseException) -> int:
    """`exc` in the one boundary's words (click's outcomes included), as the blocking answer."""
    from gitcorrex.agents.run import BLOCK_EXIT, FAILED, failure_reason
    from gitcorrex.cli.boundary import process_failure

    try:
        reason = failure_reason(exc, process_failure(exc))
    except BaseException:  # even the words failed (a broken install): still block
        reason = f"{FAILED}  {exc!r}\n"
    with suppress(BaseException):
        sys.stderr.write(reason)
    return BLOCK_EXIT
