"""`git correx log` with no range shows a screenful, as `git log` does in a pager: the
terminal's height less two lines on a terminal (a real pseudo-terminal here), else the
newest 20 commits; stderr says what was left out; `-n`, `--all` and a range change it."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from collections.abc import Callable
from pathlib import Path

from tests.conftest import REPO_ROOT, CliResult, git


def many_commits(repo: Path, count: int) -> None:
    for index in range(count):
        git(repo, "commit", "-q", "--allow-empty", "-m", f"c{index}")


def test_log_without_a_range_shows_the_newest_20_when_not_on_a_terminal(
        repo: Path, correx: Callable[..., CliResult]) -> None:
    many_commits(repo, 25)  # and the initial commit: 26
    result = correx(repo, "log")
    assert result.code == 0, result
    lines = result.stdout.splitlines()
    assert len(lines) == 20 and lines[0].endswith("c24") and lines[-1].endswith("c5")
    assert "git correx log: the newest 20 commits (a screenful); -n N or --all for more" \
        in result.stderr
    assert len(correx(repo, "log", "--all").stdout.splitlines()) == 26
    shown = correx(repo, "log", "-n", "3")
    assert len(shown.stdout.splitlines()) == 3 and shown.stderr == ""
    ranged = correx(repo, "log", "HEAD~22..HEAD")
    assert len(ranged.stdout.splitlines()) == 22 and ranged.stderr == ""


def test_log_says_nothing_was_left_out_when_all_fit(
        repo: Path, correx: Callable[..., CliResult]) -> None:
    many_commits(repo, 19)
    result = correx(repo, "log")
    assert len(result.stdout.splitlines()) == 20 and result.stderr == ""


def test_log_on_a_terminal_fills_the_screen(repo: Path) -> None:
    many_commits(repo, 30)
    main, replica = pty.openpty()
    fcntl.ioctl(replica, termios.TIOCSWINSZ, struct.pack("HHHH", 12, 100, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "gitcorrex", "log"], cwd=repo, env=env,
                            stdout=replica, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(replica)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    _, err = proc.communicate(timeout=120)
    os.close(main)
    lines = b"".join(chunks).decode().splitlines()
    assert proc.returncode == 0, err
    assert len(lines) == 10 and lines[0].endswith("c29"), lines
    assert b"the newest 10 commits (a screenful)" in err


def test_log_refuses_a_count_and_all_together(
        repo: Path, correx: Callable[..., CliResult]) -> None:
    result = correx(repo, "log", "-n", "2", "--all")
    assert result.code == 2 and "-n and --all contradict each other" in result.stderr
