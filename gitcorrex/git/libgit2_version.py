"""The libgit2 version every event records (`tool.libgit2`), without importing pygit2.

`pygit2.LIBGIT2_VERSION` is compiled into pygit2's extension: asking for it costs the
~100 ms CPU import of libgit2 that the plain `verify` path exists to avoid. So the answer is
kept next to the ledger (`fold_store.py`), keyed by the installed extension files (path,
inode, size, mtime) and this program's version: reinstalling pygit2 changes the key, and
the next run imports pygit2 once to learn the new version.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from gitcorrex.git.fold_store import load_fold, store_fold

STORE_NAME = "libgit2-version"
_EXTENSIONS = ("_pygit2.", "_libgit2.")


def libgit2_version_cached(common_dir: Path) -> str:
    """What `pygit2.LIBGIT2_VERSION` says, from the store when the extension is unchanged."""
    stamp = _extension_stamp()
    if stamp:
        known = load_fold(common_dir, STORE_NAME, stamp)
        if isinstance(known, str):
            return known
    from gitcorrex.git.notes_libgit2 import libgit2_version

    version = libgit2_version()
    if stamp:
        store_fold(common_dir, STORE_NAME, stamp, version)
    return version


def _extension_stamp() -> list[str]:
    """Path, inode, size and mtime of pygit2's compiled modules; [] when not found."""
    spec = importlib.util.find_spec("pygit2")
    where = list(spec.submodule_search_locations or []) if spec is not None else []
    if len(where) != 1:
        return []
    stamp: list[str] = []
    try:
        for entry in sorted(os.scandir(where[0]), key=lambda e: e.name):
            if entry.name.startswith(_EXTENSIONS):
                info = entry.stat()
                stamp.append(f"{entry.path} {info.st_ino} {info.st_size} {info.st_mtime_ns}")
    except OSError:
        return []
    return stamp
