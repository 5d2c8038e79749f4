"""The command runner on real processes: bounded capture, process groups, deadlines."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from gitcorrex.runner.command import run_command

BIG = "import sys; sys.stdout.write(''.join(f'line {i:05d}\\n' for i in range(10000)))"
EXPECTED_BIG = "".join(f"line {i:05d}\n" for i in range(10000)).encode()


def python(code: str) -> list[str]:
    return ["python3", "-c", code]


def test_output_beyond_the_cap_keeps_size_digest_head_and_tail(tmp_path: Path) -> None:
    outcome = run_command(python(BIG), cwd=tmp_path, timeout_s=30, output_cap=1024)
    assert (outcome.stop_reason, outcome.exit_code) == ("exit", 0)
    assert outcome.output_size == len(EXPECTED_BIG)
    assert outcome.output_sha256 == hashlib.sha256(EXPECTED_BIG).hexdigest()
    assert outcome.truncated
    assert outcome.output.startswith(EXPECTED_BIG[:512])
    assert outcome.output.endswith(EXPECTED_BIG[-512:])
    assert b"bytes omitted by git correx" in outcome.output


def test_streamed_chunks_are_exactly_the_output(tmp_path: Path) -> None:
    chunks: list[bytes] = []
    outcome = run_command(python(BIG), cwd=tmp_path, timeout_s=30, on_output=chunks.append)
    assert b"".join(chunks) == outcome.output == EXPECTED_BIG
    assert not outcome.truncated


def test_a_child_left_holding_the_output_is_ended(tmp_path: Path) -> None:
    leaves_child = python("import subprocess; subprocess.Popen(['sleep', '60']); print('done')")
    started = time.monotonic()
    outcome = run_command(leaves_child, cwd=tmp_path, timeout_s=30)
    assert time.monotonic() - started < 10
    assert (outcome.stop_reason, outcome.exit_code, outcome.output) == ("exit", 0, b"done\n")


def test_closing_the_output_does_not_escape_the_timeout(tmp_path: Path) -> None:
    started = time.monotonic()
    outcome = run_command(python("import os, time; os.close(1); os.close(2); time.sleep(30)"),
                          cwd=tmp_path, timeout_s=1)
    assert time.monotonic() - started < 10
    assert outcome.stop_reason == "timeout"


def test_a_file_that_is_not_executable_is_not_found(tmp_path: Path) -> None:
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    outcome = run_command([str(script)], cwd=tmp_path, timeout_s=5)
    assert (outcome.stop_reason, outcome.exit_code) == ("not_found", None)
    assert b"Permission denied" in outcome.output


def test_the_exit_status_is_recorded(tmp_path: Path) -> None:
    outcome = run_command(python("raise SystemExit(7)"), cwd=tmp_path, timeout_s=5)
    assert (outcome.stop_reason, outcome.exit_code, outcome.signal) == ("exit", 7, None)
