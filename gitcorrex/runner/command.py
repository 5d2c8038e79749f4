"""Running one operator command: its own process group, output teed and captured, timeouts.

The command runs without a shell, stdin closed, stderr merged into stdout. A timeout, an
interrupt, or a command that exits while its children still hold the pipe, ends the whole
process group — TERM first, KILL after a grace period — so nothing outlives the run.
"""

from __future__ import annotations

import errno
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from gitcorrex.errors import UnavailableError
from gitcorrex.runner.capture import OutputCapture
from gitcorrex.runner.exec_limits import exec_refusal

KILL_GRACE_S = 3.0
LINGER_S = 0.5


class CommandOutcome(NamedTuple):
    """What happened to one command; `stop_reason` is exit, timeout, signal or not_found."""

    exit_code: int | None
    signal: int | None
    stop_reason: str
    duration_ms: int
    output: bytes
    output_size: int
    output_sha256: str
    truncated: bool


def passed(outcome: CommandOutcome) -> bool:
    """Only a normal exit with status 0 passes."""
    return outcome.stop_reason == "exit" and outcome.exit_code == 0


def run_command(argv: Sequence[str], *, cwd: Path, timeout_s: float,
                env: Mapping[str, str] | None = None,
                on_output: Callable[[bytes], None] | None = None,
                output_cap: int = 8 << 20) -> CommandOutcome:
    """Run `argv` to completion or timeout; never raises for the command's own failure.
    What exec would refuse (a NUL, arguments or environment over the system's limits)
    raises before anything starts (exec_limits.py)."""
    start = time.monotonic()
    capture = OutputCapture(output_cap)
    proc = _start(argv, cwd, env, capture)
    if proc is None:
        return _outcome(None, None, "not_found", start, capture)
    try:
        timed_out = _pump(proc, capture, on_output, deadline=start + timeout_s)
    except BaseException:
        _end_group(proc)
        raise
    code = proc.returncode
    if timed_out:
        killed_by = -code if code is not None and code < 0 else None
        return _outcome(None if killed_by else code, killed_by, "timeout", start, capture)
    if code is not None and code < 0:
        return _outcome(None, -code, "signal", start, capture)
    return _outcome(code, None, "exit", start, capture)


def _start(argv: Sequence[str], cwd: Path, env: Mapping[str, str] | None,
           capture: OutputCapture) -> subprocess.Popen[bytes] | None:
    """The command started in its own session; None, with the reason captured, when the
    program cannot be found or run. What exec would refuse raises before exec."""
    refusal = exec_refusal(argv, env or os.environ)
    if refusal is not None:
        raise refusal
    try:
        return subprocess.Popen(list(argv), cwd=cwd, env=dict(env) if env else None,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
    except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
        capture.feed(f"{argv[0]}: {exc.strerror or exc}\n".encode())
        return None
    except OSError as exc:  # a limit exec_refusal does not know (another system's)
        if exc.errno != errno.E2BIG:
            raise
        raise UnavailableError(f"cannot run {argv[0]!r}: {exc.strerror}",
                               hint="shorten the environment or the command line") from None


def _pump(proc: subprocess.Popen[bytes], capture: OutputCapture,
          on_output: Callable[[bytes], None] | None, *, deadline: float) -> bool:
    """Copy output until EOF; True when the deadline passed and the group was ended."""
    if proc.stdout is None:
        raise ValueError("the command's output must be a pipe")
    fd = proc.stdout.fileno()
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        exited_at: float | None = None
        while True:
            now = time.monotonic()
            if now >= deadline:
                _end_group(proc, drain=lambda: _drain(fd, capture, on_output))
                return True
            if exited_at is None and proc.poll() is not None:
                exited_at = now
            if exited_at is not None and now - exited_at > LINGER_S:
                _end_group(proc, drain=lambda: _drain(fd, capture, on_output))
                return False
            wait = min(deadline - now, 0.1 if exited_at is None else LINGER_S)
            if selector.select(timeout=max(wait, 0.0)) and not _read_into(fd, capture, on_output):
                return _await_exit(proc, deadline)


def _await_exit(proc: subprocess.Popen[bytes], deadline: float) -> bool:
    """Output closed, but the command may still run: the deadline holds until it exits.

    True when the deadline passed first; either way the group is ended afterwards.
    """
    try:
        proc.wait(timeout=max(deadline - time.monotonic(), 0.0))
    except subprocess.TimeoutExpired:
        _end_group(proc)
        return True
    _end_group(proc)
    return False


def _read_into(fd: int, capture: OutputCapture,
               on_output: Callable[[bytes], None] | None) -> bool:
    """Read one chunk; False at end of file."""
    chunk = os.read(fd, 65536)
    if not chunk:
        return False
    capture.feed(chunk)
    if on_output is not None:
        on_output(chunk)
    return True


def _drain(fd: int, capture: OutputCapture,
           on_output: Callable[[bytes], None] | None) -> None:
    """Collect what is left in the pipe after the group was ended, without blocking."""
    os.set_blocking(fd, False)
    try:
        while _read_into(fd, capture, on_output):
            pass
    except BlockingIOError:
        pass


def _end_group(proc: subprocess.Popen[bytes],
               drain: Callable[[], None] | None = None) -> None:
    """TERM the whole process group, KILL it after the grace period, reap the leader."""
    for sig, grace in ((signal.SIGTERM, KILL_GRACE_S), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            break
        if grace is None:
            break
        try:
            proc.wait(timeout=grace)
            time.sleep(0.05)
        except subprocess.TimeoutExpired:
            continue
        if not _group_alive(proc.pid):
            break
    proc.wait()
    if drain is not None:
        drain()
    if proc.stdout is not None:
        proc.stdout.close()


def _group_alive(pgid: int) -> bool:
    """Whether any process of the group is left (signal 0 probes without harm)."""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _outcome(code: int | None, sig: int | None, reason: str, start: float,
             capture: OutputCapture) -> CommandOutcome:
    duration_ms = int((time.monotonic() - start) * 1000)
    return CommandOutcome(code, sig, reason, duration_ms, capture.kept(), capture.size,
                          capture.sha256(), capture.truncated)
