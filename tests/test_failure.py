"""The one mapping (gitcorrex/failure.py): every exception → the documented exit code and words.

Pure function tests; tests/cli/test_boundary_entries.py runs the same faults through every
entry as real processes.
"""

from __future__ import annotations

import errno
import signal

from gitcorrex.errors import ConfigError, EnvironmentFaultError, GitCommandError, Interrupted
from gitcorrex.failure import BUG, ENVIRONMENT, ERROR, INTERRUPTED, QUIET, failure_of


def test_a_correx_error_keeps_its_code_message_and_hint() -> None:
    failure = failure_of(ConfigError("stages.x.writes: expected a list", hint="write a list"))
    assert (failure.code, failure.kind) == (2, ERROR)
    assert failure.text == ("git correx: error: stages.x.writes: expected a list\n"
                            "  hint: write a list\n")


def test_outside_text_in_a_message_is_escaped() -> None:
    failure = failure_of(ConfigError("path a\u202eb.txt", hint="bell\x07"))
    assert failure.message == "path a\\u202eb.txt" and failure.hint == "bell\\x07"


def test_a_git_command_that_ran_out_of_space_is_the_environmental_fault() -> None:
    failed = GitCommandError(["git", "write-tree"], 128,
                             "fatal: unable to write loose object file: No space left on device")
    failure = failure_of(failed)
    assert (failure.code, failure.kind) == (3, ENVIRONMENT)
    assert failure.message == "cannot write: no space left on device"
    assert failure.hint is not None and failure.hint.startswith("free space")


def test_a_clean_up_failing_for_the_same_reason_does_not_hide_the_named_path() -> None:
    """A full disk refuses the write and then the clean-up on the way out (an index record
    written as the command ends): the unnamed second fault must not hide the named first."""
    try:
        try:
            raise EnvironmentFaultError(errno.ENOSPC, "/repo/.git/objects")
        except EnvironmentFaultError:
            raise OSError(errno.ENOSPC, "No space left on device")  # noqa: B904
    except OSError as exc:
        failure = failure_of(exc)
    assert failure.message == "cannot write /repo/.git/objects: no space left on device"


def test_any_other_git_failure_stays_the_git_error() -> None:
    failure = failure_of(GitCommandError(["git", "write-tree"], 128, "fatal: bad object"))
    assert (failure.code, failure.kind) == (3, ERROR)
    assert "git write-tree" in failure.message


def test_an_os_error_naming_a_fault_is_one_line_with_its_path() -> None:
    failure = failure_of(OSError(errno.EROFS, "Read-only file system", "/repo/.git/objects"))
    assert (failure.code, failure.kind) == (3, ENVIRONMENT)
    assert failure.text.splitlines()[0] == ("git correx: error: cannot write "
                                            "/repo/.git/objects: read-only file system")


def test_a_stop_signal_is_128_plus_n() -> None:
    failure = failure_of(Interrupted(signal.SIGTERM))
    assert (failure.code, failure.kind) == (143, INTERRUPTED)
    assert failure.text == "git correx: interrupted (SIGTERM)\n"
    assert failure_of(KeyboardInterrupt()).code == 130


def test_a_closed_pipe_and_system_exit_are_quiet() -> None:
    assert (failure_of(BrokenPipeError()).code, failure_of(BrokenPipeError()).text) == (0, "")
    assert failure_of(SystemExit(5)).code == 5 and failure_of(SystemExit(5)).kind == QUIET


def test_a_bug_is_4_with_its_traceback() -> None:
    try:
        raise RuntimeError("planted")
    except RuntimeError as exc:
        failure = failure_of(exc)
    assert (failure.code, failure.kind) == (4, BUG) and not failure.is_expected
    assert "Traceback" in failure.text and "RuntimeError: planted" in failure.text
    assert failure.text.endswith("internal error (a bug); please report the traceback above\n")
