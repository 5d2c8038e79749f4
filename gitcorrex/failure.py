"""What a failure means to whoever ran us: the documented exit code, its kind and its words.

The one mapping every entry shares: the console script and the installed hooks run inside
cli/boundary.py, which reports `failure_of`'s text and exits with its code; the agent adapters
(agents/) word the same failure in their agent's blocking answer; the MCP server gives its
message and hint as the tool's error. Pure: nothing is written, nothing exits (that is
cli/boundary.py's part), and it imports neither click nor pygit2 (nor dataclasses: start-up).
- CorrexError → its own code, one line and a hint;
- a stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) → 128 + the signal;
- an environmental fault (no space, quota, read-only, permissions; also inside a libgit2
  error or named by a failed git command) → 3 with one line, never a traceback and never
  "fail";
- SystemExit → its code; a reader that went away (`| head`) → 0, silently;
- anything else is a bug → 4 with the traceback.
"""

from __future__ import annotations

import signal

from gitcorrex.errors import (
    CorrexError,
    ExitCode,
    GitCommandError,
    Interrupted,
    environmental_error,
)
from gitcorrex.model.printable import printable

INTERRUPTED = "interrupted"
ERROR = "error"
ENVIRONMENT = "environment"
USAGE = "usage"
QUIET = "quiet"  # an exit with its own code and nothing to say (--help, a closed pipe)
BUG = "bug"
EXPECTED = (ERROR, ENVIRONMENT, USAGE)


class Failure:
    """One failure: `code` to exit with, `kind` (one of the names above), `message` and
    `hint` one line each with outside text escaped, `detail` a bug's traceback or a usage
    text. `text` is what a command prints on stderr.

    A plain class, not a dataclass: every fast path (state, hook run, agent hook) imports
    this module, and `dataclasses` pulls in `inspect` (~8 ms)."""

    __slots__ = ("code", "detail", "hint", "kind", "message")

    def __init__(self, code: int, kind: str, message: str = "", hint: str | None = None,
                 detail: str = "") -> None:
        self.code = code
        self.kind = kind
        self.message = message
        self.hint = hint
        self.detail = detail

    def __repr__(self) -> str:
        return f"Failure({self.code}, {self.kind!r}, {self.message!r}, hint={self.hint!r})"

    @property
    def is_expected(self) -> bool:
        """A failure the user can act on (an error, a fault, a usage): not a bug or a stop."""
        return self.kind in EXPECTED

    @property
    def text(self) -> str:
        """The lines a command writes on stderr (empty for a quiet exit)."""
        if self.kind == INTERRUPTED:
            return f"git correx: interrupted ({self.message})\n"
        if self.kind == BUG:
            return (f"{self.detail}git correx: internal error (a bug); please report the "
                    "traceback above\n")
        if self.kind in (USAGE, QUIET):
            return self.detail
        hint = f"  hint: {self.hint}\n" if self.hint else ""
        return f"git correx: error: {self.message}\n{hint}"


def failure_of(exc: BaseException) -> Failure:
    """The documented exit code and words for `exc` (nothing is written)."""
    signum = interrupting_signal(exc)
    if signum is not None:
        return Failure(128 + signum, INTERRUPTED, signal.Signals(signum).name)
    if isinstance(exc, GitCommandError):  # git ran out of space or permissions: say that
        fault = environmental_error(exc)
        return _error(fault, ENVIRONMENT) if fault is not None else _error(exc, ERROR)
    if isinstance(exc, CorrexError):
        return _error(exc, ERROR)
    if isinstance(exc, SystemExit):
        return Failure(exc.code if isinstance(exc.code, int) else ExitCode.USAGE, QUIET)
    if isinstance(exc, BrokenPipeError):
        return Failure(ExitCode.OK, QUIET)
    fault = environmental_error(exc)
    if fault is not None:
        return _error(fault, ENVIRONMENT)
    import traceback

    return Failure(ExitCode.INTERNAL, BUG, printable(f"{type(exc).__name__}: {exc}"),
                   detail="".join(traceback.format_exception(exc)))


def _error(exc: CorrexError, kind: str) -> Failure:
    message = "\n".join(printable(line) for line in exc.message.split("\n"))
    hint = printable(exc.hint) if exc.hint else None
    return Failure(int(exc.exit_code), kind, message, hint)


def interrupting_signal(exc: BaseException) -> int | None:
    """The signal behind `exc` (click wraps Ctrl-C in Abort, keeping it as the cause)."""
    seen: BaseException | None = exc
    for _ in range(4):
        if isinstance(seen, Interrupted):
            return seen.signum
        if isinstance(seen, KeyboardInterrupt):
            return signal.SIGINT
        if seen is None:
            break
        seen = seen.__cause__ or seen.__context__
    return signal.SIGINT if type(exc).__name__ == "Abort" else None
