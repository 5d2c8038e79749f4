"""The worktrees of killed `verify --isolated` runs are swept by the next one.

A SIGKILL leaves no chance to clean up: the temporary worktree (`correx-isolated-*` in the
temporary directory) and git's record of it (`.git/worktrees/<id>`, listed by `git
worktree list`) stay. Each is named for its owning process (git/owned_files.py), so the
next isolated run removes those whose owner is gone — and never a live run's.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

from tests.conftest import REPO_ROOT, git, run_correx
from tests.verify.conftest import py, write_profile


def _worktrees(repo: Path) -> list[Path]:
    """The worktrees git lists besides the main one."""
    lines = git(repo, "worktree", "list", "--porcelain").splitlines()
    return [Path(line.removeprefix("worktree ")) for line in lines
            if line.startswith("worktree ") and Path(line[9:]) != repo]


def _start_isolated(repo: Path, pids: Path) -> subprocess.Popen[bytes]:
    """`verify --isolated` in its own process group, once its command is running in the
    isolated worktree (the command writes its pid to `pids` and sleeps)."""
    sleeper = py(f"import os, time; open({str(pids)!r}, 'a').write(f'{{os.getpid()}}\\n'); "
                 "time.sleep(60)")
    write_profile(repo, {"slow": sleeper, "quick": "python3 -c pass"},
                  {"slow": ["slow"], "quick": ["quick"]}, default="slow")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "gitcorrex", "verify", "--isolated"],
                            cwd=repo, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 30
    while not (pids.exists() and pids.read_text().strip()):
        assert time.monotonic() < deadline and proc.poll() is None, "the command never ran"
        time.sleep(0.05)
    return proc


def _kill(pids: Path) -> None:
    """End the profile command (it runs in a process group of its own)."""
    for pid in pids.read_text().split():
        with suppress(ProcessLookupError):
            os.kill(int(pid), signal.SIGKILL)


def test_a_killed_isolated_verify_leaves_nothing_after_the_next_one(
        repo: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    proc = _start_isolated(repo, pids)
    (left,) = _worktrees(repo)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    _kill(pids)
    try:
        assert left.exists() and _worktrees(repo) == [left]  # SIGKILL: no clean-up ran
        result = run_correx(repo, "verify", "--isolated", "--expect", "quick")
        assert result.code == 0, result
        assert _worktrees(repo) == []
        assert not left.parent.exists()
        records = repo / ".git" / "worktrees"
        assert not records.exists() or list(records.iterdir()) == []
    finally:
        shutil.rmtree(left.parent, ignore_errors=True)  # a failed test leaves no litter


def test_a_running_isolated_verify_keeps_its_worktree(repo: Path, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    proc = _start_isolated(repo, pids)
    try:
        (running,) = _worktrees(repo)
        result = run_correx(repo, "verify", "--isolated", "--expect", "quick")
        assert result.code == 0, result
        assert _worktrees(repo) == [running] and running.exists()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
        _kill(pids)
