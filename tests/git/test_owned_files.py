"""Scratch files named for their owner: a dead owner's are removed, a live owner's kept."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from gitcorrex.git import owned_files

PREFIX = "correx-index-"


def test_a_file_of_this_process_is_kept(tmp_path: Path) -> None:
    path = owned_files.reserve(tmp_path, PREFIX)
    assert owned_files.sweep_dead(tmp_path, PREFIX) == []
    assert os.path.exists(path)


def test_a_file_of_an_exited_process_is_removed_with_its_lock(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    pid = int(proc.stdout)
    dead = tmp_path / f"{PREFIX}{pid}-1234-abc"
    dead.write_bytes(b"index")
    (tmp_path / f"{dead.name}.lock").write_bytes(b"")
    assert owned_files.sweep_dead(tmp_path, PREFIX) == [dead.name]
    assert list(tmp_path.iterdir()) == []


def test_a_reused_pid_with_another_start_time_does_not_keep_a_file(tmp_path: Path) -> None:
    start = owned_files.process_start(os.getpid())
    assert start is not None
    recycled = tmp_path / f"{PREFIX}{os.getpid()}-{start + 1}-abc"
    recycled.write_bytes(b"index")
    assert owned_files.sweep_dead(tmp_path, PREFIX) == [recycled.name]


def test_an_unowned_name_is_removed_only_when_an_hour_old(tmp_path: Path) -> None:
    fresh = tmp_path / f"{PREFIX}abc123"
    fresh.write_bytes(b"index")
    assert owned_files.sweep_dead(tmp_path, PREFIX) == []
    later = time.time() + 2 * owned_files.UNOWNED_MAX_AGE_S
    assert owned_files.sweep_dead(tmp_path, PREFIX, now=later) == [fresh.name]


def test_other_names_are_left_alone(tmp_path: Path) -> None:
    (tmp_path / "index").write_bytes(b"index")
    (tmp_path / "correx-other-1-2-x").write_bytes(b"")
    assert owned_files.sweep_dead(tmp_path, PREFIX) == []
    assert len(list(tmp_path.iterdir())) == 2
