"""Small files of ours in the common git dir (`<common dir>/correx/`): counters, markers,
the last packed tip. Never in the work tree, never committed; plain file I/O, no libgit2
(the ledger's packing count runs on the plain `verify` path too)."""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path

from gitcorrex.git.repository import Repository

LOCAL_STATE_DIR = "correx"


def local_state_path(repo: Repository, name: str) -> Path:
    """A file of ours in the common git dir (never in the work tree, never committed)."""
    return repo.common_dir / LOCAL_STATE_DIR / name


def open_local_state(repo: Repository, name: str, flags: int, mode: int) -> int:
    """`os.open` of our local state file `name`, making `<common dir>/correx/` only when it
    is missing: every append opens two or three of these, and asking for the directory
    first cost a failing `mkdir` each time. Raises OSError like `os.open`."""
    path = local_state_path(repo, name)
    try:
        return os.open(path, flags, mode)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, flags, mode)


def read_local_state(repo: Repository, name: str) -> str | None:
    """The text of our local state file `name`; None when it is missing or unreadable."""
    try:
        return local_state_path(repo, name).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None


def write_local_state(repo: Repository, name: str, text: str) -> None:
    """Replace the local state file atomically (a reader sees the old or the new text).

    Concurrent writers race harmlessly: the last rename wins. A read-only git dir is not
    an error: the file is only an optimisation.
    """
    import tempfile  # with `shutil`, `bz2`, `lzma`: not for the appends that only open files

    path = local_state_path(repo, name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{name}.", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(text)
        os.replace(temp, path)
    except OSError:
        with suppress(OSError):
            os.unlink(temp)
