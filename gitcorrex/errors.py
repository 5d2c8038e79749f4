"""The one error family: every failure carries its exit code and a hint that says what to do.

Helpers raise; only the CLI root turns an error into an exit code, so a use-case can be
called from tests or other programs without ever killing the process.
"""

from __future__ import annotations

import errno
import os
import re
import signal
from enum import IntEnum


class ExitCode(IntEnum):
    """Documented, stable exit codes (README "Exit codes")."""

    OK = 0
    CHECK_FAILED = 1
    USAGE = 2
    UNAVAILABLE = 3
    INTERNAL = 4
    INTERRUPTED = 130


class CorrexError(Exception):
    """Base of every expected failure; `hint` is the one-line fix shown to the user."""

    exit_code: ExitCode = ExitCode.INTERNAL

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class UsageError(CorrexError):
    """Bad arguments or a command used where it cannot apply."""

    exit_code = ExitCode.USAGE


class ConfigError(CorrexError):
    """A profile, plan or git config value is invalid; the message names the key path."""

    exit_code = ExitCode.USAGE


class NotARepositoryError(UsageError):
    """No repository, or a bare one where a work tree is required."""


class UnavailableError(CorrexError):
    """The answer cannot be known right now (timeout, missing history, contention...)."""

    exit_code = ExitCode.UNAVAILABLE


class LedgerContentionError(UnavailableError):
    """The compare-and-swap append lost every retry; nothing was written."""


class GitCommandError(UnavailableError):
    """A git subprocess failed; carries argv, status and stderr so the cause is visible."""

    def __init__(self, argv: list[str], status: int, stderr: str) -> None:
        detail = stderr.strip() or "(no output)"
        super().__init__(
            f"git failed (exit {status}): {' '.join(argv)}\n{detail}",
            hint="run the git command above by hand to see what git needs",
        )
        self.argv = argv
        self.status = status
        self.stderr = stderr


class TransitionRefusedError(CorrexError):
    """A session transition's admission check does not hold; nothing was recorded."""

    exit_code = ExitCode.CHECK_FAILED


class OperatorRefusedError(CorrexError):
    """A decision reserved to people was asked for where an agent runs (cli/operator_guard.py);
    nothing was recorded."""

    exit_code = ExitCode.CHECK_FAILED


class RevisionConflictError(UnavailableError):
    """The session moved on since the caller read it (compare-and-swap lost); resubmit."""


# The signals that stop a command: Ctrl-C, a terminal closed, a supervisor ending it. A
# terminal sends them to the whole foreground process group, git children included.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
    if hasattr(signal, name)
)


class Interrupted(KeyboardInterrupt):
    """A stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) arrived; the exit code is 128 + it.

    A KeyboardInterrupt, so every `except BaseException` cleanup (ending a command's process
    group, deleting a temporary index) runs for SIGTERM exactly as it does for Ctrl-C.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_FAULT_CAUSES = {
    errno.ENOSPC: ("no space left on device", "free space on that file system"),
    errno.EDQUOT: ("disk quota exceeded", "free space or raise the quota"),
    errno.EROFS: ("read-only file system", "run it where the repository is writable"),
    errno.EACCES: ("permission denied", "check the permissions of that path for this user"),
    errno.EPERM: ("operation not permitted", "check the permissions of that path for this user"),
    errno.EMFILE: ("too many open files", "raise this shell's open-file limit (`ulimit -n`)"),
    errno.ENFILE: ("too many open files in system", "close programs holding many files"),
    errno.ENOTDIR: ("not a directory", "a file stands where that path needs a directory: "
                    "move it aside"),
    errno.EISDIR: ("is a directory", "a directory stands where that path needs a file: "
                   "move it aside"),
}
# What the command could not do, when a fault is not a write's (a write's is "cannot write")
_FAULT_VERBS = {errno.EMFILE: "cannot open", errno.ENFILE: "cannot open",
                errno.ENOTDIR: "cannot use", errno.EISDIR: "cannot use"}


class EnvironmentFaultError(UnavailableError):
    """The machine stopped the command, not the check (no space, quota, read-only file
    system, permissions, the open-file limit): exit 3, one line, never a "fail" and never a
    traceback."""

    def __init__(self, code: int, path: str | None) -> None:
        cause, fix = _FAULT_CAUSES[code]
        where = f" {path}" if path else ""
        verb = _FAULT_VERBS.get(code, "cannot write")
        super().__init__(f"{verb}{where}: {cause}", hint=f"{fix}, then run the command "
                         "again (nothing was recorded)")
        self.errno = code
        self.path = path


def environmental_error(exc: BaseException) -> EnvironmentFaultError | None:
    """The environmental fault behind `exc` (itself, a cause, or a libgit2 message naming one),
    or None when `exc` is something else. A fault that names no path gives way to the same
    fault named further down the chain: a clean-up that failed for the same reason while
    the named fault was on its way out (a full disk refuses both) must not hide the path."""
    first: EnvironmentFaultError | None = None
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            break
        fault = _fault_of(seen)
        if fault is not None:
            first = first or fault
            if fault.path is not None and fault.errno == first.errno:
                return fault
        seen = seen.__cause__ or seen.__context__
    return first


def _fault_of(seen: BaseException) -> EnvironmentFaultError | None:
    """The fault `seen` itself is or names (never its causes)."""
    if isinstance(seen, EnvironmentFaultError):
        return seen
    if isinstance(seen, OSError) and seen.errno in _FAULT_CAUSES:
        path = seen.filename2 if seen.filename2 is not None else seen.filename
        return EnvironmentFaultError(seen.errno, None if path is None else str(path))
    text = str(seen)
    for code, (cause, _) in _FAULT_CAUSES.items():
        if cause in text.lower() or os.strerror(code).lower() in text.lower():
            quoted = re.search(r"'(/[^']+)'", text)
            return EnvironmentFaultError(code, quoted.group(1) if quoted else None)
    return None
