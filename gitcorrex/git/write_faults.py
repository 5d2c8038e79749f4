"""libgit2 writes that fail because of the machine become EnvironmentFaultError (exit 3).

libgit2 often loses the cause: on a full file system writing a large blob raised
`GitError: no error`, which read as a bug (exit 4) or, worse, as a failed check, and a
commit it could not store surfaced only when the ref moved ("target OID for the reference
doesn't exist"). So the object store is examined first: a read-only mount, no write access,
or less than LOW_SPACE_BYTES free is the fault reported, naming the directory; else the
cause the error names. Every ledger write path asks `write_fault` (notes_libgit2.py,
notes_plumbing.py, ref_create.py, notes_merge.py). Imports no
pygit2 at module level: `git correx state` asks it about `git add -A` failures too.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

from gitcorrex.errors import EnvironmentFaultError, environmental_error
from gitcorrex.git.repository import Repository

LOW_SPACE_BYTES = 16 << 20
F = TypeVar("F", bound=Callable[..., Any])


def object_store_fault(objects: Path) -> EnvironmentFaultError | None:
    """What keeps us from writing to `objects` (read-only, no access, no space), or None."""
    try:
        info = os.statvfs(objects)
    except OSError as exc:
        return environmental_error(exc)
    if info.f_flag & os.ST_RDONLY:
        return EnvironmentFaultError(errno.EROFS, str(objects))
    if not os.access(objects, os.W_OK):
        return EnvironmentFaultError(errno.EACCES, str(objects))
    if info.f_bavail * info.f_frsize < LOW_SPACE_BYTES:
        return EnvironmentFaultError(errno.ENOSPC, str(objects))
    return None


def write_fault(common_dir: Path, exc: BaseException) -> EnvironmentFaultError | None:
    """The machine's fault behind a failed write to the repository at `common_dir` (its
    objects or its refs), or None when it is not the machine's. The object store is asked
    first, and named: libgit2 and git often name no path ("failed to write out file",
    "couldn't write '….lock'") or no cause at all ("target OID for the reference doesn't
    exist" once a commit could not be stored); else the cause the error itself names."""
    return object_store_fault(common_dir / "objects") or environmental_error(exc)


def translates_write_faults(func: F) -> F:
    """Decorate a function whose first argument is the Repository it writes objects to."""

    @wraps(func)
    def wrapper(repo: Repository, *args: Any, **kwargs: Any) -> Any:
        try:
            return func(repo, *args, **kwargs)
        except Exception as exc:
            import pygit2  # loaded already when a libgit2 call raised

            if not isinstance(exc, (pygit2.GitError, OSError)):
                raise
            fault = write_fault(repo.common_dir, exc)
            if fault is None:
                raise
            raise fault from exc

    return wrapper  # type: ignore[return-value]
