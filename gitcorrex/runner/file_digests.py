"""Content digests of programs and lockfiles, and the installed set of a virtualenv, at the
cost of a `stat`.

Hashing a 6 MB interpreter on every verify would cost ~10 ms; its digest is a pure function
of its bytes, which do not change while its device, inode, size, modification time and
status-change time (in nanoseconds) stay the same. So a digest is kept in a small table
next to the ledger (`<common dir>/correx/folds/environment-digests.json`,
git/fold_store.py) under the file's path and those five numbers, and recomputed only when
one of them changes. The same holds for a site-packages directory: installing or removing
a distribution adds or removes a `*.dist-info` entry, which changes the directory's
modification time. The table is an optimisation, never a source of truth: unreadable, it
is rebuilt; unwritable, skipped.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from gitcorrex.git import load_table, store_table

TABLE = "environment-digests"
LIMIT = 512
DIST_SUFFIXES = (".dist-info", ".egg-info")


class DigestCache:
    """The stored digests of one run: loaded once, written back once if anything changed."""

    def __init__(self, common_dir: Path) -> None:
        self.common_dir = common_dir
        self.table = load_table(common_dir, TABLE)
        self.changed = False

    def file_sha256(self, path: str) -> str | None:
        """The sha256 of the regular file `path` (symbolic links followed); None when it
        cannot be read."""
        try:
            stat = os.stat(path)
        except OSError:
            return None
        # ctime too: rewriting a file in place and restoring its mtime still changes it
        key = [stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]
        found = self.table.get(f"file:{path}")
        if isinstance(found, list) and found[:5] == key and len(found) == 6:
            return str(found[5])
        digest = _sha256_of(path)
        if digest is not None:
            self._keep(f"file:{path}", [*key, digest])
        return digest

    def installed_set(self, site_packages: list[str]) -> tuple[str, int]:
        """A digest of the distributions installed in these directories (their
        `*.dist-info`/`*.egg-info` names: name and version), and how many there are."""
        names: list[str] = []
        for directory in site_packages:
            names += self._distributions(directory)
        names.sort()
        digest = hashlib.sha256("\n".join(names).encode("utf-8", "surrogateescape"))
        return digest.hexdigest(), len(names)

    def save(self) -> None:
        if self.changed:
            store_table(self.common_dir, TABLE, self.table, LIMIT)

    def _distributions(self, directory: str) -> list[str]:
        try:
            stat = os.stat(directory)
        except OSError:
            return []
        key = [stat.st_dev, stat.st_ino, stat.st_mtime_ns]
        found = self.table.get(f"site:{directory}")
        if isinstance(found, list) and found[:3] == key and len(found) == 4:
            return [str(name) for name in found[3]]
        try:
            names = sorted(entry for entry in os.listdir(directory)
                           if entry.endswith(DIST_SUFFIXES))
        except OSError:
            return []
        self._keep(f"site:{directory}", [*key, names])
        return names

    def _keep(self, key: str, value: list[object]) -> None:
        self.table.pop(key, None)  # newest last: the table keeps the newest LIMIT entries
        self.table[key] = value
        self.changed = True


def _sha256_of(path: str) -> str | None:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def site_packages(venv: str) -> list[str]:
    """The site-packages directories of the virtualenv at `venv` (POSIX and Windows
    layouts); [] when it has none."""
    found: list[str] = []
    lib = os.path.join(venv, "lib")
    try:
        versions = sorted(os.listdir(lib))
    except OSError:
        versions = []
    for name in versions:
        candidate = os.path.join(lib, name, "site-packages")
        if name.startswith(("python", "pypy")) and os.path.isdir(candidate):
            found.append(candidate)
    windows = os.path.join(venv, "Lib", "site-packages")
    if os.path.isdir(windows):
        found.append(windows)
    return found
