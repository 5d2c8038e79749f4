"""Scratch files a run owns inside the git directory, and removing those of dead runs.

A run that is killed (SIGKILL, a crashed CI runner, an out-of-memory kill) cannot delete its
scratch files, and a full copy of the index is megabytes. So every scratch file is named
for its owner: `<prefix><pid>-<start>-<random>`, where `start` is the process's start time
(clock ticks since boot, from `/proc/<pid>/stat`). A later run removes a file whose owner
is gone — no such pid, or a pid reused by a process that started at another time. A pid
alone would not do: pids wrap, and a recycled pid would keep a leak alive forever.

Where `/proc` does not exist the start time is 0 and liveness is the pid's existence. Names
in the older unowned form (`<prefix><random>`) are removed once they are an hour old: no
run holds a scratch index that long. A lone `.lock` (git killed while writing) goes with
its owner. Nothing here imports pygit2 or pydantic.
"""

from __future__ import annotations

import os
import re
import time
from contextlib import suppress
from functools import lru_cache
from pathlib import Path

from gitcorrex.errors import UnavailableError, environmental_error

UNOWNED_MAX_AGE_S = 3600.0
_OWNED = re.compile(r"(\d+)-(\d+)-")


def process_start(pid: int) -> int | None:
    """The start time of `pid` in clock ticks since boot; 0 without /proc; None when no
    such process exists."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except FileNotFoundError:
        return None if os.path.isdir("/proc/self") else _exists_without_proc(pid)
    except OSError:
        return _exists_without_proc(pid)
    # The command name (field 2) may hold spaces and parentheses: split after the last ')'.
    fields = stat[stat.rfind(b")") + 2 :].split()
    return int(fields[19])


def _exists_without_proc(pid: int) -> int | None:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return 0  # it exists, owned by someone else
    return 0


@lru_cache(maxsize=1)
def _own_tag(pid: int) -> str:
    return f"{pid}-{process_start(pid) or 0}-"


def owner_tag() -> str:
    """`<pid>-<start>-` for this process (recomputed after a fork, since the pid changes)."""
    return _own_tag(os.getpid())


def is_owner_alive(name: str, prefix: str) -> bool:
    """Whether the run that named `name` (`<prefix><pid>-<start>-…`) is still running.
    An unowned (older) name counts as alive: the caller decides by its age."""
    match = _OWNED.match(name, len(prefix))
    if match is None:
        return True
    pid, start = int(match.group(1)), int(match.group(2))
    current = process_start(pid)
    return current is not None and (current == start or 0 in (current, start))


def reserve(directory: Path, prefix: str) -> str:
    """Create an empty file named for this run in `directory`; its path."""
    path = os.path.join(directory, prefix + owner_tag() + os.urandom(6).hex())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        fault = environmental_error(exc)
        if fault is not None:
            raise fault from exc
        raise UnavailableError(
            f"cannot create a scratch file in {directory}: {exc.strerror}",
            hint="computing a state key needs write access to the git directory",
        ) from exc
    os.close(fd)
    return path


def remove(path: str) -> None:
    """Delete a scratch file and git's lock beside it; already gone is fine."""
    for name in (path, path + ".lock"):
        with suppress(FileNotFoundError):
            os.unlink(name)


def sweep_dead(directory: Path, prefix: str, *, now: float | None = None) -> list[str]:
    """Remove every `prefix*` file in `directory` whose owner is gone; the names removed.
    Errors (a directory we may not read or write) leave things as they are. `now` (the
    clock, for unowned names) is the caller's to give in tests."""
    removed: list[str] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    now = time.time() if now is None else now
    names = {entry.name for entry in entries}
    for entry in entries:
        name = entry.name
        if not name.startswith(prefix) or name.removesuffix(".lock") in names - {name}:
            continue  # not ours, or a lock that goes with its index
        if _OWNED.match(name, len(prefix)) is None:
            with suppress(OSError):  # ctime: a copy keeps its source's mtime, not its ctime
                if now - entry.stat(follow_symlinks=False).st_ctime < UNOWNED_MAX_AGE_S:
                    continue
        elif is_owner_alive(name, prefix):
            continue
        with suppress(OSError):
            remove(entry.path)
            removed.append(name)
    return removed
