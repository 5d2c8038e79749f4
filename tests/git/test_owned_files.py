"""Temporary indexes carry their owner: a killed run's copy is removed by the next run, a
live run's copy never is."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from gitcorrex.git import owned_files
from gitcorrex.git.state import TEMP_INDEX_PREFIX
from tests.conftest import REPO_ROOT, run_correx
from tests.verify.conftest import py, write_profile


def temp_indexes(root: Path) -> list[str]:
    return sorted(n for n in os.listdir(root / ".git") if n.startswith(TEMP_INDEX_PREFIX))


def test_a_killed_runs_index_is_removed_by_the_next_run(repo: Path, tmp_path: Path) -> None:
    pid_file = tmp_path / "command.pid"
    slow = py(f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); "
              "time.sleep(30)")
    write_profile(repo, {"slow": slow}, {"e": ["slow"]}, default="e")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "gitcorrex", "verify"], cwd=repo, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)  # no cleanup can run
        proc.wait()
    finally:
        time.sleep(0.2)
        os.killpg(int(pid_file.read_text()), signal.SIGKILL)  # the command's own group
    [left] = temp_indexes(repo)
    assert f"-{proc.pid}-" in left
    assert run_correx(repo, "state").code == 0
    assert temp_indexes(repo) == []


def test_a_live_runs_index_is_kept_and_a_dead_pid_is_not(repo: Path) -> None:
    git_dir = repo / ".git"
    mine = owned_files.reserve(git_dir, TEMP_INDEX_PREFIX)  # this test process: alive
    host = Path(mine).name[len(TEMP_INDEX_PREFIX):].split("-")[0]
    dead = subprocess.Popen(["true"])
    dead.wait()
    gone = git_dir / f"{TEMP_INDEX_PREFIX}{host}-{dead.pid}-1-abcdefgh"
    gone.write_bytes(b"old index")
    recycled = git_dir / f"{TEMP_INDEX_PREFIX}{host}-{os.getpid()}-1-abcdefgh"  # wrong start
    recycled.write_bytes(b"old index")
    other_host = git_dir / f"{TEMP_INDEX_PREFIX}00000000-{dead.pid}-1-abcdefgh"
    other_host.write_bytes(b"a container's index")
    assert run_correx(repo, "state").code == 0
    assert temp_indexes(repo) == sorted([Path(mine).name, other_host.name])
