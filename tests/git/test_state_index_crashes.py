"""Killed runs and concurrent runs around the persistent state index.

Real processes hold the kept index (or a scratch copy) and are killed with SIGKILL, as an
out-of-memory kill or a cancelled CI job would; the next run must give the definition's key
and leave no scratch file behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from gitcorrex.git.repository import discover
from gitcorrex.git.state import StateProbe, compute_state
from tests.conftest import REPO_ROOT, write
from tests.git.state_helpers import reference_key

HOLD = """
import sys, time
from pathlib import Path
from gitcorrex.git.repository import discover
from gitcorrex.git.state import StateProbe
probe = StateProbe(discover(Path.cwd()))
probe.measure()
print("kept" if probe.on_kept_index else "copy", flush=True)
time.sleep(120)
"""


def hold(repo: Path) -> tuple[subprocess.Popen[str], str]:
    """A process that measured the workspace and now sits on its index; what it holds."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", HOLD], cwd=repo, env=env,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def scratch_files(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / ".git").iterdir() if p.name.startswith("correx-index-"))


def test_runs_killed_while_holding_indexes_leave_nothing_behind(repo: Path) -> None:
    write(repo, "a.txt", "a\n")
    first, first_holds = hold(repo)
    second, second_holds = hold(repo)
    assert (first_holds, second_holds) == ("kept", "copy")
    assert len(scratch_files(repo)) == 1
    for proc in (first, second):
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    write(repo, "b.txt", "b\n")
    os.unlink(repo / "a.txt")
    with StateProbe(discover(repo)) as probe:
        assert probe.on_kept_index  # the kernel dropped the killed run's lock
        assert probe.measure().state_key == reference_key(repo)
    assert scratch_files(repo) == []


def test_a_lock_left_by_a_killed_git_is_removed(repo: Path) -> None:
    write(repo, "a.txt", "a\n")
    compute_state(discover(repo))
    lock = repo / ".git" / "correx" / "state-index.lock"
    lock.write_bytes(b"half an index")
    write(repo, "b.txt", "b\n")
    assert compute_state(discover(repo)).state_key == reference_key(repo)
    assert not lock.exists()


def test_a_scratch_copy_of_a_live_run_is_kept(repo: Path) -> None:
    first, _ = hold(repo)
    second, holds = hold(repo)
    try:
        assert holds == "copy"
        before = scratch_files(repo)
        compute_state(discover(repo))
        assert scratch_files(repo) == before != []
    finally:
        for proc in (first, second):
            proc.kill()
            proc.wait()
