"""Writers of one ledger take turns: an advisory `flock` queue in front of the
compare-and-swap.

Compare-and-swap alone keeps every append correct but not fair: between reading the tip and
moving it a writer reads the ledger (a session's next `seq`), and any other writer that
moves the tip meanwhile sends it round again. Eight `verify --session` processes on two
cores needed up to 43 attempts for one append, sixteen lost appends after 60
(`benchmarks/bench_contention.py`). Queued, git correx writers no longer race each other;
the compare-and-swap still guards against every other writer (`git notes`, a fetch, a
writer on another machine sharing the directory), so the queue is only about speed and
fairness, never about correctness.

Hence its failure modes are all "go without it": no `fcntl` (Windows), a read-only git dir,
or a holder that does not let go within `wait` seconds (a stopped process) — the append
then races as before. The kernel drops the lock of a killed holder, so nothing is ever left
to clean up, and the file is not named `*.lock`, which git and our contention error reserve
for git's own locks.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from gitcorrex.git.local_state import open_local_state
from gitcorrex.git.repository import Repository

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: writers race, compare-and-swap keeps them right
    fcntl = None  # type: ignore[assignment]

QUEUE_FILE = "ledger-writers"
WAIT_SECONDS = 20.0


@contextmanager
def writers_turn(repo: Repository, *, wait: float = WAIT_SECONDS) -> Iterator[bool]:
    """Hold this repository's ledger writers' queue for the block; True when held, False
    when the append goes without it (see the module docstring)."""
    fd = _take(repo, wait)
    try:
        yield fd is not None
    finally:
        if fd is not None:
            os.close(fd)  # closing the only descriptor releases the flock


def _take(repo: Repository, wait: float) -> int | None:
    if fcntl is None:
        return None
    try:
        fd = open_local_state(repo, QUEUE_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return None
    deadline = time.monotonic() + wait
    pause = 0.0005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                break
        except OSError:  # a file system without flock: race as before
            break
        time.sleep(pause)
        pause = min(pause * 2, 0.01)
    os.close(fd)
    return None
