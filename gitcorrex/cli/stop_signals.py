"""Stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) raise `Interrupted` inside the boundary.

A KeyboardInterrupt subclass, so every `except BaseException` cleanup on the way out (ending a
command's process group, deleting a temporary index) runs for SIGTERM exactly as for Ctrl-C;
the boundary (cli/boundary.py) then maps it to 128 + the signal.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from types import FrameType

from gitcorrex.errors import STOP_SIGNALS, Interrupted

TYPE_CHECKING = False  # no `typing` at run time: every command starts here
if TYPE_CHECKING:
    from typing import Any


class StopSignalGuard:
    """The process's handlers while a guarded body runs: signals are process-wide, so there
    is one guard (`GUARD`), entered re-entrantly by nested entries (a hook run inside main)."""

    def __init__(self) -> None:
        self.depth = 0
        self.stopping = False
        self.closing = False  # the guard is coming down: a stop now is noted, not raised
        self.late: int | None = None  # the stop noted while coming down (raised after)
        self.resending: list[int] = []  # signals sent again, not yet delivered (a list:
        #                                  append and pop are atomic between threads)

    @contextmanager
    def raising(self) -> Iterator[None]:
        """While inside: a stop signal raises Interrupted in the main thread (once; a second
        signal while cleaning up is ignored, so cleanup finishes). Restores the previous
        handlers on the way out; a signal ignored at start (nohup's SIGHUP) stays ignored."""
        if threading.current_thread() is not threading.main_thread():
            yield  # only the main thread receives signals
            return
        if self.depth:
            self.depth += 1
            try:
                yield
            finally:
                self.depth -= 1
            return
        previous = {signum: signal.signal(signum, self._raise) for signum in STOP_SIGNALS
                    if signal.getsignal(signum) is not signal.SIG_IGN}
        self.depth, self.stopping, self.closing, self.late = 1, False, False, None
        try:
            yield
        finally:
            self._close(previous)

    def _close(self, previous: dict[int, Any]) -> None:
        """Restore the handlers. A stop that arrives meanwhile is noted, not raised (raised
        here it would leave the handlers in place), and a signal on its way again
        (`_send_again`) is waited for, so that it lands here and not in the caller's
        handler; a stop noted so, when none was raised yet, is raised after."""
        self.closing = True
        deadline = time.monotonic() + 0.05
        while self.resending and time.monotonic() < deadline:
            time.sleep(0.001)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        late = None if self.stopping else self.late
        self.depth, self.stopping, self.closing, self.late = 0, False, False, None
        if late is not None:
            raise Interrupted(late)

    def _raise(self, signum: int, frame: FrameType | None) -> None:
        if self.stopping:
            return
        if self.closing:
            self.late = signum
            return
        if _unsafe_to_raise(frame):
            _send_again(signum)  # raised there, it could leak the import lock (below)
            return
        self.stopping = True
        raise Interrupted(signum)


# A signal handler runs between any two bytecodes of the main thread. Inside the import
# system that may be just after it took its global lock and before the `try` that frees it,
# or inside a module lock's weakref callback, which swallows the exception: the lock stays
# held, the next import on another thread (the state probe's, who records) waits forever,
# and the stop signal is lost. So there the signal is sent again a moment later, when the
# main thread is back in code where raising is safe.
#
# A signal sent again can arrive while this handler is still running for the first one
# (under load the first is re-sent before the handler has returned to the import system):
# raised there, it would leave the handler and land in the import system all the same. So
# a signal whose frame is inside this handler is sent again too.
IMPORT_SYSTEM = "<frozen importlib"


def _unsafe_to_raise(frame: FrameType | None) -> bool:
    """Whether the interrupted frame is the import system's own code, or anywhere inside
    this module's handler (see above)."""
    if frame is not None and frame.f_code.co_filename.startswith(IMPORT_SYSTEM):
        return True
    while frame is not None:
        if frame.f_code in _HANDLER_CODE:
            return True
        frame = frame.f_back
    return False


def _send_again(signum: int) -> None:
    """Sends `signum` to this process again 2 ms from now, from a bare thread (starting it
    waits on no Python-level event, so the handler returns at once). A real signal, not a
    simulated one (`interrupt_main`): only a real one wakes the main thread from the call
    it waits in (a command's output, a git process). Dropped once the guard has raised or
    is gone; the guard waits for it when coming down (`_close`), so that it is not handed
    to the caller's handler, which left at the default would end the process."""
    import _thread
    import os

    def later() -> None:
        try:
            time.sleep(0.002)
            if GUARD.depth and not GUARD.stopping:
                os.kill(os.getpid(), signum)
        finally:
            GUARD.resending.pop()

    GUARD.resending.append(signum)
    _thread.start_new_thread(later, ())


GUARD = StopSignalGuard()
_HANDLER_CODE = (StopSignalGuard._raise.__code__, _unsafe_to_raise.__code__,
                 _send_again.__code__)


def stop_signals_raise() -> AbstractContextManager[None]:
    """The process's guard, entered (see StopSignalGuard.raising)."""
    return GUARD.raising()
