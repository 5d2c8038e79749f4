"""The one error boundary: every entry's failure becomes a documented exit code and a message.

Used by the console script (before click is imported: the click-free fast paths and the
hook runner go through it), by the click root and by the hook runner. It imports neither
click nor pygit2. The mapping:
- CorrexError → its own code, one line and a hint;
- a stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) → 128 + the signal, after every cleanup
  on the way out ran (the command's process group ended, temporary files removed);
- an environmental fault (no space, quota, read-only, permissions; also inside a libgit2
  error) → 3 with one line, never a traceback and never "fail";
- a reader that went away (`| head`) → 0;
- anything else is a bug → 4 with the traceback.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from gitcorrex.errors import (
    CorrexError,
    ExitCode,
    Interrupted,
    environmental_error,
)
from gitcorrex.model.printable import printable

STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
    if hasattr(signal, name)
)
_state = {"depth": 0, "stopping": False}


def run_guarded(body: Callable[[], int], *, stopped: str | None = None) -> int:
    """Run `body` and return its exit code, or the code its failure maps to.

    `stopped` is a line added after an error (hooks say that the commit was stopped).
    """
    with stop_signals_raise():
        try:
            return int(body())
        except BaseException as exc:  # the boundary: everything is mapped, nothing escapes
            code = exit_code_for(exc)
            if stopped and code not in (ExitCode.OK, ExitCode.INTERNAL):
                sys.stderr.write(stopped)
            return code


def exit_code_for(exc: BaseException) -> int:
    """Report `exc` on stderr and return its documented exit code."""
    signum = _interrupting_signal(exc)
    if signum is not None:
        sys.stderr.write(f"git correx: interrupted ({signal.Signals(signum).name})\n")
        return 128 + signum
    if isinstance(exc, CorrexError):
        sys.stderr.write(error_text(exc))
        return int(exc.exit_code)
    if isinstance(exc, SystemExit):
        return exc.code if isinstance(exc.code, int) else ExitCode.USAGE
    if isinstance(exc, BrokenPipeError):
        return ExitCode.OK
    fault = environmental_error(exc)
    if fault is not None:
        sys.stderr.write(error_text(fault))
        return int(fault.exit_code)
    import traceback

    traceback.print_exception(exc)
    sys.stderr.write("git correx: internal error (a bug); please report the traceback above\n")
    return ExitCode.INTERNAL


def error_text(exc: CorrexError) -> str:
    """One line for what went wrong, one for what to do; outside text escaped."""
    message = "\n".join(printable(line) for line in exc.message.split("\n"))
    hint = f"  hint: {printable(exc.hint)}\n" if exc.hint else ""
    return f"git correx: error: {message}\n{hint}"


def _interrupting_signal(exc: BaseException) -> int | None:
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


@contextmanager
def stop_signals_raise() -> Iterator[None]:
    """While inside: a stop signal raises Interrupted in the main thread (once; a second
    signal while cleaning up is ignored, so cleanup finishes). Re-entrant; restores the
    previous handlers on the way out."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread receives signals
        return
    if _state["depth"]:
        _state["depth"] += 1
        try:
            yield
        finally:
            _state["depth"] -= 1
        return
    previous = {signum: signal.signal(signum, _raise_interrupted) for signum in STOP_SIGNALS
                if signal.getsignal(signum) is not signal.SIG_IGN}  # nohup: HUP stays ignored
    _state.update(depth=1, stopping=False)
    try:
        yield
    finally:
        _state.update(depth=0, stopping=False)
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _raise_interrupted(signum: int, frame: object) -> None:
    if _state["stopping"]:
        return
    _state["stopping"] = True
    raise Interrupted(signum)
