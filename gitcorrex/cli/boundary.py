"""The one error boundary of the process: every entry runs inside it and ends through it.

The console script (`main`, around cli/startup.py and click itself) and the
installed hooks (`hook run`) run inside `run_guarded`. A command that ran to its end returns
its result's conclusion (model/conclusion.py), and `CONCLUSION_CODES`, the one table, gives
the exit code. Stop signals raise inside it (stop_signals.py), and whatever escapes becomes
the documented exit code and message of the one mapping (gitcorrex/failure.py, which the
agent adapters and the MCP server use for their own protocols), plus click's own outcomes:
usage errors → 2 with the usage, `--help` → 0. It imports neither click nor pygit2 (click's
outcomes are recognised only once click is loaded). `sys.exit`/`os._exit` appear nowhere
else, and no other module turns a conclusion into a number (tests/test_architecture.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import suppress

from gitcorrex.cli.stop_signals import stop_signals_raise
from gitcorrex.errors import ExitCode
from gitcorrex.model.conclusion import Conclusion

TYPE_CHECKING = False  # no `typing` at run time on the start-up path
if TYPE_CHECKING:
    import click

    from gitcorrex.failure import Failure

CONCLUSION_CODES = {
    Conclusion.OK: ExitCode.OK,
    Conclusion.CHECK_FAILED: ExitCode.CHECK_FAILED,
    Conclusion.UNAVAILABLE: ExitCode.UNAVAILABLE,
}  # README "Exit codes": the one place a conclusion becomes a number


def run_guarded(body: Callable[[], Conclusion | int], *, stopped: str | None = None) -> int:
    """Run `body` and return the code it ends with: its conclusion's (CONCLUSION_CODES), the
    code an inner entry or click itself already ended with (a hook run inside `main`,
    `--help`), or the code its failure maps to (reported on stderr). `stopped` is a line
    added after an error (hooks say the commit was stopped)."""
    with stop_signals_raise():
        try:
            ended = body()
            return int(ended) if isinstance(ended, int) else int(CONCLUSION_CODES[ended])
        except BaseException as exc:  # the boundary: everything is mapped, nothing escapes
            failure = process_failure(exc)
            with suppress(BrokenPipeError, ValueError):
                sys.stderr.write(failure.text)
                if stopped and failure.code not in (ExitCode.OK, ExitCode.INTERNAL):
                    sys.stderr.write(stopped)
            return failure.code


def process_failure(exc: BaseException) -> Failure:
    """`failure_of(exc)`, with click's own outcomes when click raised it. The mapping is
    imported here, on the way out: a command that concludes never loads it."""
    from gitcorrex.failure import failure_of

    return _click_outcome(exc) or failure_of(exc)


def _click_outcome(exc: BaseException) -> Failure | None:
    """click's outcomes (it is loaded only when the command line reached it); None for
    anything else, Abort included (a signal: failure_of finds it behind the Abort)."""
    if "click" not in sys.modules:
        return None
    import click

    from gitcorrex.failure import USAGE, Failure, failure_of

    if isinstance(exc, click.exceptions.Exit):
        return failure_of(SystemExit(exc.exit_code))
    if isinstance(exc, click.UsageError):
        return Failure(ExitCode.USAGE, USAGE, exc.format_message(), detail=_usage_text(exc))
    if isinstance(exc, click.ClickException):
        message = exc.format_message()
        return Failure(ExitCode.USAGE, USAGE, message, detail=f"Error: {message}\n")
    return None


def _usage_text(exc: click.UsageError) -> str:
    """Click's message, pointing at `-h` and `help`: git turns `git correx --help` into
    `man git-correx`, which only works where the man page is installed."""
    lines = []
    if exc.ctx is not None:
        words = exc.ctx.command_path.split()[2:]
        lines.append(exc.ctx.get_usage())
        lines.append(f"Try '{exc.ctx.command_path} -h' or "
                     f"'git correx help {' '.join(words)}'.".replace(" '.", "'."))
    lines.append(f"\nError: {exc.format_message()}")
    return "".join(f"{line}\n" for line in lines)


def exit_now(code: int) -> None:
    """Flush our output and end the process without tearing the interpreter down.

    Freeing pydantic's and pygit2's module state at shutdown costs 50-70 ms, a sixth of a
    whole `git correx verify` on 50,000 files, and buys nothing: every file, temporary
    index and child process is closed by a `with` block before a command returns, and the
    package registers no `atexit` handler. Output still goes out: both streams are flushed
    here, and a reader that went away (`| head`) is not an error.
    """
    for stream in (sys.stdout, sys.stderr):
        with suppress(BrokenPipeError, ValueError):
            stream.flush()
    os._exit(code)
