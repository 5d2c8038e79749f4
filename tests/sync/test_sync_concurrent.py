"""Six clones recording and syncing at the same time through one `git daemon` lose nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.git.repository import discover_in_process
from gitcorrex.ledger import read_all
from gitcorrex.model.verification import VERIFICATION_KIND
from gitcorrex.sync.usecase import sync_ledger
from tests.conftest import REPO_ROOT
from tests.sync.conftest import GitServer, remote_path

CLONES = 6
EACH = 20


def verification_ids(path: Path) -> set[str]:
    read = read_all(discover_in_process(path))
    assert read.problems == []
    return {entry.id for entry in read.entries if entry.kind == VERIFICATION_KIND}


@pytest.mark.slow
def test_six_clones_syncing_concurrently_end_with_all_events(
    shared_remote: Callable[[int], list[Path]], git_server: GitServer,
) -> None:
    clones = shared_remote(CLONES)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    workers = [subprocess.Popen(
        [sys.executable, "-m", "tests.sync.clone_worker", str(path), str(index), str(EACH)],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for index, path in enumerate(clones)]
    outputs = [worker.communicate(timeout=600) for worker in workers]
    for worker, (_, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err.decode()
    rounds = [int(r) for out, _ in outputs for r in out.split()]
    assert len(rounds) == CLONES * EACH
    for path in clones:  # the last clone to finish may hold events the others lack
        sync_ledger(discover_in_process(path), remote="origin")
    expected = verification_ids(remote_path(git_server))
    assert len(expected) == CLONES * EACH
    for path in clones:
        assert verification_ids(path) == expected
