"""As real processes: a SIGKILLed verify's scratch index is removed by the next `state`, a
live run's is not (git/owned_files.py)."""

from __future__ import annotations

import os
import shutil
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
    shutil.copy2(repo / ".git" / "index", repo / ".git" / "hook-index")
    # an index git hands over (as inside a hook) is keyed on a scratch copy, never kept
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT),
           "GIT_INDEX_FILE": str(repo / ".git" / "hook-index")}
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


def test_a_live_runs_index_is_kept_by_a_later_run(repo: Path) -> None:
    mine = owned_files.reserve(repo / ".git", TEMP_INDEX_PREFIX)  # this process: alive
    assert run_correx(repo, "state").code == 0
    assert Path(mine).name in temp_indexes(repo)
