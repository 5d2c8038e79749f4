"""Every failure of an agent hook goes through the CLI's one error boundary for its words and
still ends as the agent's blocking answer (exit 2): for every agent, any other exit code lets
the tool run."""

from __future__ import annotations

import errno
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gitcorrex.agents.run import failure_reason as describe
from gitcorrex.errors import Interrupted
from tests.agents.conftest import claude
from tests.conftest import REPO_ROOT


def test_an_environmental_fault_is_one_line_with_its_exit_code() -> None:
    text = describe(OSError(errno.ENOSPC, "No space left on device", "/repo/.git/objects"))
    assert text.startswith("git correx could not assess this tool call, so it is blocked")
    assert "no space left on device" in text.lower()
    assert "(as a command this would exit 3)" in text
    assert "Traceback" not in text


def test_a_stop_signal_is_named() -> None:
    text = describe(Interrupted(signal.SIGTERM))
    assert "SIGTERM" in text and "would exit 143" in text


def test_a_bug_carries_its_traceback() -> None:
    try:
        raise RuntimeError("planted")
    except RuntimeError as exc:
        text = describe(exc)
    assert "Traceback" in text and "RuntimeError: planted" in text and "exit 4" in text


def wait_until_it_catches(pid: int, signum: int, timeout: float = 60) -> None:
    """Poll the kernel's view of the process's caught signals (Linux `SigCgt`)."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        pytest.skip("needs /proc to see when the process handles the signal")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        fields = dict(line.split(":", 1) for line in status.read_text().splitlines()
                      if ":" in line)
        if int(fields["SigCgt"].strip(), 16) >> (signum - 1) & 1:
            return
        time.sleep(0.05)
    raise AssertionError("the hook never installed its signal handler")


def test_sigterm_while_reading_the_payload_blocks(project: Path) -> None:
    """The agent gave up on the hook (its timeout sends SIGTERM): still exit 2."""
    proc = subprocess.Popen([sys.executable, "-m", "gitcorrex", "assess", "--hook",
                             "claude-code"], cwd=project, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**__import__("os").environ, "PYTHONPATH": str(REPO_ROOT)})
    assert proc.stdin is not None
    proc.stdin.write(claude("PreToolUse", project, "Write", file_path="src/a.py")[:20])
    proc.stdin.flush()
    wait_until_it_catches(proc.pid, signal.SIGTERM)  # up, and inside the boundary
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2, (out, err)
    assert b"SIGTERM" in err and b"blocked (fail closed)" in err
