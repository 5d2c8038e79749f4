"""Packing the ledger's objects as they accumulate, so a push sends a pack it already has.

Each append leaves loose objects: the note blobs it rewrote, the fanout trees above them,
its commit, and the workspace tree it anchors (about 3.5 per event). Pushing 10,000 events
from loose objects took 2.7 to 4.9 s, after a `git gc` 0.9 s: git sends packed data as it is.
So the append that brings the count of events since the last pack to `correx.packEvents`
(default 1,000; 0 turns packing off) packs what is reachable from the ledger tip and not
from the tip packed last time — `git pack-objects --revs --unpacked --incremental`, whose
sparse walk costs what is new, not the whole ledger — then `git prune-packed` drops the
loose copies. Counting costs one O_APPEND write of one byte per event to
`<git dir>/correx/ledger-unpacked` (concurrent appenders never overwrite each other's
bytes); a pack empties it. Packing is an optimisation: a pack that fails (disk full, a
killed git) leaves the loose objects in place, says nothing, and is tried at the next append.
"""

from __future__ import annotations

import os
from contextlib import suppress

from gitcorrex.errors import ConfigError
from gitcorrex.git.config import config_value
from gitcorrex.git.local_state import (
    local_state_path,
    open_local_state,
    read_local_state,
    write_local_state,
)
from gitcorrex.git.objects import lookup_objects
from gitcorrex.git.process import run_git
from gitcorrex.git.repository import Repository

KEY = "correx.packEvents"
DEFAULT_EVENTS = 1000
COUNTER = "ledger-unpacked"
PACKED = "ledger-packed"


def note_appended(repo: Repository, tip: str, events: int, *, every: int) -> bool:
    """Count `events` just appended at `tip`; pack when `every` (`pack_interval`, read
    before the append) is reached. Whether a pack was written."""
    if every == 0 or events <= 0:
        return False
    if _count(repo, events) < every:
        return False
    return pack_ledger(repo, tip)


def pack_interval(repo: Repository) -> int:
    """`correx.packEvents`: events between two packs, 0 for never; exit 2 when not a number."""
    value = config_value(repo, KEY)
    if value is None:
        return DEFAULT_EVENTS
    if not value.strip().isdigit():
        raise ConfigError(f"git config {KEY}: {value!r} is not a whole number",
                          hint=f"set it to a count of events such as 1000, or 0 to never pack "
                               f"(`git config {KEY} 1000`)")
    return int(value)


def pack_ledger(repo: Repository, tip: str) -> bool:
    """Pack the loose objects reachable from `tip` and not from the last packed tip."""
    since = (read_local_state(repo, PACKED) or "").strip()
    revs = f"{tip}\n"
    found = lookup_objects(repo, [since])[0] if since else None
    if found is not None and found.kind == "commit":
        revs += f"--not\n{since}\n"
    base = str(repo.common_dir / "objects" / "pack" / "pack")
    cwd = repo.work_tree or repo.git_dir
    packed = run_git(["pack-objects", "--revs", "--unpacked", "--incremental", "-q", base],
                     cwd=cwd, stdin=revs.encode("ascii"), check=False)
    if packed.returncode != 0:
        return False
    run_git(["prune-packed", "-q"], cwd=cwd, check=False)
    write_local_state(repo, PACKED, tip + "\n")
    with suppress(OSError):
        local_state_path(repo, COUNTER).write_bytes(b"")
    return True


def _count(repo: Repository, events: int) -> int:
    """Add `events` bytes to the counter file; its size after (0 when it cannot be written)."""
    try:
        fd = open_local_state(repo, COUNTER, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError:
        return 0
    try:
        os.write(fd, b"." * events)
        return os.fstat(fd).st_size
    except OSError:
        return 0
    finally:
        os.close(fd)
