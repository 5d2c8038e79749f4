"""Where a session's notes hang, derivable from its id alone: plain functions, no pydantic,
so that a read path (`session status`, the hooks) can find a session's note without
loading the event models."""

from __future__ import annotations

import hashlib
import re

from gitcorrex.errors import UsageError

SESSION_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
_SESSION_ID = re.compile(SESSION_ID_PATTERN)


def is_session_id(session: str) -> bool:
    """Whether `session` can name a session object (1-64 letters, digits, '.', '_', '-')."""
    return _SESSION_ID.match(session) is not None and "\n" not in session


def check_session_id(session: str) -> None:
    """Refuse a session id that could not name a session object (exit 2)."""
    if not is_session_id(session):
        raise UsageError(
            f"invalid session id {session!r}", hint="use 1-64 letters, digits, '.', '_' or '-'"
        )


def session_object_bytes(session: str) -> bytes:
    """The blob a session's notes hang on; its hash is derivable from the id alone."""
    return f"correx session {session}\n".encode()


def git_blob_oid(data: bytes) -> str:
    """The sha1 object id git gives `data` as a blob, computed without touching git."""
    return hashlib.sha1(b"blob %d\x00" % len(data) + data).hexdigest()


def session_object_oid(session: str) -> str:
    """Where a session's notes hang: the blob id of `session_object_bytes(session)`."""
    return git_blob_oid(session_object_bytes(session))
