"""libgit2 writes that fail because of the machine become EnvironmentFaultError (exit 3).

libgit2 often loses the cause: on a full file system writing a large blob raised
`GitError: no error`, which read as a bug (exit 4) or, worse, as a failed check. When the
message names no cause, the object store is examined: a read-only mount, no write access,
or less than LOW_SPACE_BYTES free is the fault reported, naming the directory. Imports no
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
            fault = environmental_error(exc) or object_store_fault(repo.common_dir / "objects")
            if fault is None:
                raise
            raise fault from exc

    return wrapper  # type: ignore[return-value]
