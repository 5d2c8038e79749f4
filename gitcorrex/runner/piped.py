"""Running a command with bytes on its stdin and its stdout and stderr kept apart: how an
agent host runs a hook command (`sh -c COMMAND`, the payload on stdin, the answer on stdout,
the reason on stderr). doctor's live probe runs the installed hook command this way.

Unlike command.py (an operator's build check: stdin closed, stderr merged), the two streams
are the answer here. The command runs in its own process group; a timeout ends the group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple


class PipedOutcome(NamedTuple):
    """`exit_code` None when the command did not end in time (`timed_out`) or was killed."""

    exit_code: int | None
    stdout: bytes
    stderr: bytes
    timed_out: bool


def run_piped(argv: Sequence[str], *, stdin: bytes, cwd: Path, timeout_s: float,
              env: Mapping[str, str] | None = None) -> PipedOutcome:
    """Run `argv` with `stdin`, to completion or `timeout_s`; never raises for the
    command's own failure (a program that cannot start is exit 127, as a shell says)."""
    try:
        proc = subprocess.Popen(list(argv), cwd=cwd, env=None if env is None else dict(env),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except FileNotFoundError as exc:
        return PipedOutcome(127, b"", str(exc).encode(), False)
    try:
        stdout, stderr = proc.communicate(stdin, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        _end_group(proc)
        stdout, stderr = proc.communicate()
        return PipedOutcome(None, stdout, stderr, True)
    except BaseException:
        _end_group(proc)
        raise
    code = proc.returncode
    return PipedOutcome(code if code >= 0 else None, stdout, stderr, False)


def _end_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
