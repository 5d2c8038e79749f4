"""Running many clones at once: each a `tests.sync.clone_worker` process, all started
together, each recording and syncing through the same served repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gitcorrex.ledger import read_all
from gitcorrex.model.verification import VerificationFields
from tests.conftest import REPO_ROOT, in_process


def run_fleet(clones: list[Path], each: int, *, in_process: bool = False,
              timeout: float = 900) -> list[int]:
    """Start one worker per clone at once; the rounds of every sync (asserts exit 0)."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    mode = ["in-process"] if in_process else []
    workers = [subprocess.Popen(
        [sys.executable, "-m", "tests.sync.clone_worker", str(path), str(index), str(each),
         *mode],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for index, path in enumerate(clones)]
    outputs = [worker.communicate(timeout=timeout) for worker in workers]
    for worker, (_, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err.decode()
    rounds = [int(r) for out, _ in outputs for r in out.split()]
    assert len(rounds) == len(clones) * each
    return rounds


def verification_ids(path: Path) -> set[str]:
    read = read_all(in_process(path))
    assert read.problems == []
    return {entry.id for entry in read.entries if entry.kind == VerificationFields.KIND}
