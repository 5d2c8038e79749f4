"""Running a command as an agent host runs a hook: bytes on stdin, stdout and stderr apart,
and a timeout that ends the whole process group."""

from __future__ import annotations

import time
from pathlib import Path

from gitcorrex.runner.piped import run_piped


def test_stdin_reaches_the_command_and_the_streams_stay_apart(tmp_path: Path) -> None:
    outcome = run_piped(["sh", "-c", "cat; echo oops >&2; exit 3"], stdin=b"payload",
                        cwd=tmp_path, timeout_s=30)
    assert (outcome.exit_code, outcome.stdout, outcome.stderr, outcome.timed_out) == \
        (3, b"payload", b"oops\n", False)


def test_a_timeout_ends_the_command_and_its_children(tmp_path: Path) -> None:
    marker = tmp_path / "late"
    started = time.monotonic()
    outcome = run_piped(["sh", "-c", f"(sleep 2; touch {marker}) & sleep 30"], stdin=b"",
                        cwd=tmp_path, timeout_s=0.5)
    assert outcome.timed_out and outcome.exit_code is None
    assert time.monotonic() - started < 10
    time.sleep(2.5)
    assert not marker.exists()  # the background child was ended with the group


def test_a_program_that_does_not_exist_is_exit_127(tmp_path: Path) -> None:
    outcome = run_piped(["/nonexistent/sh"], stdin=b"", cwd=tmp_path, timeout_s=5)
    assert outcome.exit_code == 127
