"""Temporary files named for the process that owns them, so a later run removes what a
killed run left behind and never what a live run still uses.

A SIGKILL (or a power cut) skips every cleanup; one repository had collected 96 copies of
its index that way. The name carries the owner — `<prefix><host>-<pid>-<start>-<random>`,
where `start` is the process's start time (Linux `/proc/<pid>/stat`, 0 elsewhere) so a
recycled pid is not mistaken for the owner — and every run that reserves a file first
removes the files of owners that are gone. A file of another host (a repository shared with
a container) is left alone for a day, since its pid says nothing here. A name without an
owner (written by an older version) is removed an hour after it was created.
"""

from __future__ import annotations

import hashlib
import os
import socket
import tempfile
import time
from contextlib import suppress
from functools import lru_cache
from pathlib import Path

FOREIGN_HOST_GRACE_S = 24 * 3600
UNOWNED_GRACE_S = 3600


def reserve(directory: Path, prefix: str) -> str:
    """Create an empty file in `directory` named for this process; stale ones go first."""
    remove_stale(directory, prefix)
    owner = f"{_host_tag()}-{os.getpid()}-{process_start(os.getpid())}-"
    fd, path = tempfile.mkstemp(prefix=prefix + owner, dir=directory)
    os.close(fd)
    return path


def remove_stale(directory: Path, prefix: str) -> list[str]:
    """Delete `prefix*` files whose owner is gone; the names removed (none when unreadable)."""
    try:
        names = [name for name in os.listdir(directory) if name.startswith(prefix)]
    except OSError:
        return []
    removed = []
    for name in names:
        path = directory / name
        if _is_stale(name[len(prefix):], path):
            with suppress(OSError):
                path.unlink()
                removed.append(name)
    return removed


def _is_stale(rest: str, path: Path) -> bool:
    parts = rest.split("-")
    if len(parts) < 4 or not (parts[1].isdigit() and parts[2].isdigit()):
        return _older_than(path, UNOWNED_GRACE_S)
    host, pid, start = parts[0], int(parts[1]), int(parts[2])
    if host != _host_tag():
        return _older_than(path, FOREIGN_HOST_GRACE_S)
    return not is_alive(pid, start)


def is_alive(pid: int, start: int) -> bool:
    """Whether process `pid` runs and is the one that started at `start` (0: unknown)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, owned by someone else
    return start == 0 or process_start(pid) in (start, 0)


def process_start(pid: int) -> int:
    """The process's start time in clock ticks since boot (Linux); 0 when unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        return int(fields[19])
    except (OSError, IndexError, ValueError):
        return 0


def _older_than(path: Path, seconds: float) -> bool:
    try:
        return time.time() - path.stat().st_ctime > seconds
    except OSError:
        return False


@lru_cache(maxsize=1)
def _host_tag() -> str:
    return hashlib.sha1(socket.gethostname().encode()).hexdigest()[:8]
