"""Claiming the worktree's kept state index: its lock, its record, and whether it is reused.

`state_index.py` says why each worktree keeps one index between runs and how runs share it;
this is the first step of every use, in one place, with nothing but `os`, `fcntl` and `json`
loaded: `git correx state` takes it before the rest of the program has loaded
(`state_start.py`), so that its scan starts ~15 ms earlier, and `open_state_index` takes it
the same way when nothing took it before.

A claim holds the exclusive `flock` on `state-index.owner` (taken without waiting: None when
another run holds it), the record when the index may be reused (the user's index, the kept
index and the pruning stamp as the record says: `state_index_trust.py`), and the kept
index's stamp taken before anything touched it. The record file is deleted once claimed: a
run killed from here on leaves no record, and the next run rebuilds.
"""

from __future__ import annotations

import json
import os

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock, every run uses a scratch copy
    fcntl = None  # type: ignore[assignment]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on this path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

HOME = "correx"
INDEX_NAME = "state-index"
WATCH_FILE = "watch.json"  # state_watch.py: written by `watch start`


class KeptClaim:
    """The kept index of one worktree, locked by this run (`lock_fd`); `record` when it may
    be reused as it is (else it must be rebuilt); `stamps` of the user's and the kept index
    as they were when claimed."""

    __slots__ = ("index", "index_stamp", "lock_fd", "record", "user_stamp")

    def __init__(self, index: str, lock_fd: int, record: dict[str, Any] | None,
                 index_stamp: list[int] | None, user_stamp: list[int] | None) -> None:
        self.index, self.lock_fd, self.record = index, lock_fd, record
        self.index_stamp, self.user_stamp = index_stamp, user_stamp


def claim_kept_index(git_dir: str | Path, common_dir: str | Path,
                     source: str | Path) -> KeptClaim | None:
    """Lock and judge `git_dir`'s kept index, a copy of the user's index `source`; None
    when another run holds it or the git dir is read-only (use a scratch copy)."""
    home = os.path.join(git_dir, HOME)
    lock_fd = _try_lock(home)
    if lock_fd is None:
        return None
    try:
        index = os.path.join(home, INDEX_NAME)
        _remove(index + ".lock")  # a git killed mid-write: nobody else holds our lock
        record = read_record(index)
        user_stamp, index_stamp = file_stamp(source), file_stamp(index)
        reusable = (record is not None and record.get("user_index") == user_stamp
                    and index_stamp is not None and record.get("index") == index_stamp
                    and record.get("pruning") == pruning_stamp(common_dir))
        _remove(record_path(index))  # from here on a crash means: rebuild
        return KeptClaim(index, lock_fd, record if reusable else None, index_stamp, user_stamp)
    except BaseException:
        os.close(lock_fd)
        raise


def has_untracked_cache(record: dict[str, Any] | None) -> bool:
    """Whether a reused kept index carries git's untracked cache: yes, unless the user's
    config turns the cache off (a file system whose directory mtimes cannot be trusted)."""
    if record is None:
        return False
    values = [entry.split("\n", 1)[-1].lower() for entry in record["trust"]["settings"]
              if entry.lower().startswith("core.untrackedcache\n")]
    return not values or values[-1] in ("true", "yes", "on", "1", "keep")


def file_stamp(path: str | Path) -> list[int] | None:
    """Inode, size and mtime in ns; None when the file does not exist."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return [info.st_ino, info.st_size, info.st_mtime_ns]


def pruning_stamp(common_dir: str | Path) -> list[list[int] | None]:
    """Stamps of `objects/` and `objects/pack`: `git gc` repacks (and may prune) and so
    changes them. git's pruning keeps what the worktrees' own indexes reference, not ours:
    after a gc, blobs only the kept index referenced may be gone, so it is rebuilt."""
    objects = os.path.join(common_dir, "objects")
    return [file_stamp(objects), file_stamp(os.path.join(objects, "pack"))]


def record_path(index: str | Path) -> str:
    return os.path.join(os.path.dirname(index), INDEX_NAME + ".json")


def read_record(index: str | Path) -> dict[str, Any] | None:
    try:
        with open(record_path(index), encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _try_lock(home: str) -> int | None:
    """An exclusive lock on `home/state-index.owner` without waiting; None when held."""
    if fcntl is None:
        return None
    try:
        os.makedirs(home, exist_ok=True)  # the git dir exists: only `correx/` may be made
        fd = os.open(os.path.join(home, INDEX_NAME + ".owner"),
                     os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return None  # a read-only git dir: the scratch copy reports it properly
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _remove(path: str) -> None:
    """Delete `path` if it exists (no `contextlib` on this path: ~0.5 ms)."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
