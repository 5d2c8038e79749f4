"""The one error family: every failure carries its exit code and a hint that says what to do.

Helpers raise; only the CLI root turns an error into an exit code, so a use-case can be
called from tests or other programs without ever killing the process.
"""

from __future__ import annotations

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


class RevisionConflictError(UnavailableError):
    """The session moved on since the caller read it (compare-and-swap lost); resubmit."""
