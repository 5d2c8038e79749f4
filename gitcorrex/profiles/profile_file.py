"""The one reader of the work tree's `.correx.toml`, and the blob a tree holds there.

The profile's commands are part of what a pass claims, and a pass is bound to the profile's
blob in the tree it verified. So the profile must be a regular file inside the tree: a
symbolic link enters the tree as its target's *path*, and editing the file it points to
would change the commands under the same state key; a FIFO would hang the reader, a
directory is no profile. Every loader reads the bytes here (`profiles/load.py`, and
`verify/selection.py`, which keys its stored selection by them), so there is one check.

No pydantic here: `verify` reads the profile on every run and validates it only when its
selection is not stored yet.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository, blobs_at

PROFILE_NAME = ".correx.toml"
_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) \
    | getattr(os, "O_CLOEXEC", 0)


def read_profile_bytes(root: Path) -> bytes:
    """The raw profile of a work tree; missing, unreadable or not a regular file is a
    ConfigError (exit 2) with the fix. Opened without following a link and without
    blocking, then checked on the open file: nothing can be swapped in between."""
    path = root / PROFILE_NAME
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            raise _not_a_file(path, "a symbolic link")
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        raise ConfigError(f"no {PROFILE_NAME} in {root}",
                          hint="run `git correx init` to write a starter profile") from None
    except OSError as exc:
        raise _unreadable(path, exc) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _not_a_file(path, _kind(mode))
        return _read_all(fd)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    finally:
        os.close(fd)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def tree_profiles(repo: Repository, trees: Sequence[str]) -> dict[str, str | None]:
    """tree → the blob id of its `.correx.toml` (None when it holds none): the profile a
    pass of that tree must have run under. One `git cat-file` for all of them."""
    return blobs_at(repo, trees, PROFILE_NAME)


def same_profile_values(one: bytes, other: bytes) -> bool:
    """Whether two profiles' bytes say the same thing (equal TOML values): what git's own
    conversions of the file (end of line) keep, and a rewritten command does not. Bytes
    that are not UTF-8 TOML never match."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        return bool(tomllib.loads(one.decode("utf-8")) == tomllib.loads(other.decode("utf-8")))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False


def _not_a_file(path: Path, what: str) -> ConfigError:
    return ConfigError(f"{path} is {what}: {PROFILE_NAME} must be a regular file inside the "
                       "work tree (its commands are part of what a pass claims)",
                       hint=f"replace it with the file itself (e.g. `cp --remove-destination "
                            f"\"$(readlink -f {PROFILE_NAME})\" {PROFILE_NAME}`)")


def _unreadable(path: Path, exc: OSError) -> ConfigError:
    if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a link swapped in after the lstat
        return _not_a_file(path, "a symbolic link")
    return ConfigError(f"cannot read {path}: {exc.strerror or exc}",
                       hint=f"make {PROFILE_NAME} a readable regular file")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    return "not a regular file"
