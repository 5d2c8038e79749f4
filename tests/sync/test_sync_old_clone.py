"""A clone running the version before writer refs (it knows only the shared ref) keeps
syncing with clones of this version, in both directions."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, CliResult
from tests.ledger_facts import verify_tree
from tests.sync.test_sync import dirty_tree, event_ids

OLD = "1fa4728d0c3a6fd6135d58e3e17ed3c03160744f"  # main before writer refs


def old_version(into: Path) -> Path:
    """The old package, unpacked from this repository's history (`git archive OLD`)."""
    found = subprocess.run(["git", "cat-file", "-e", f"{OLD}^{{commit}}"], cwd=REPO_ROOT,
                           capture_output=True, check=False)
    if found.returncode != 0:
        pytest.skip(f"commit {OLD[:12]} (the old version) is not in this clone's history")
    archive = subprocess.run(["git", "archive", OLD, "gitcorrex"], cwd=REPO_ROOT,
                             capture_output=True, check=True).stdout
    into.mkdir()
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def old_correx(old: Path, cwd: Path, *args: str) -> CliResult:
    env = {**os.environ, "PYTHONPATH": str(old)}
    proc = subprocess.run([sys.executable, "-m", "gitcorrex", *args], cwd=cwd, env=env,
                          capture_output=True, check=False)
    return CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def test_an_old_clone_and_a_new_clone_keep_syncing(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
    tmp_path: Path,
) -> None:
    old = old_version(tmp_path / "old")
    new_clone, old_clone = shared_remote(2)
    verify_tree(new_clone, dirty_tree(new_clone, "a.txt"), seconds=1)
    assert correx(new_clone, "sync").code == 0
    verify_tree(old_clone, dirty_tree(old_clone, "b.txt"), seconds=2)
    first = old_correx(old, old_clone, "sync", "--json")
    assert first.code == 0, first
    assert '"writer"' not in first.stdout  # really the old version
    verify_tree(new_clone, dirty_tree(new_clone, "c.txt"), seconds=3)
    assert correx(new_clone, "sync").code == 0
    second = old_correx(old, old_clone, "sync")
    assert second.code == 0, second
    assert len(event_ids(old_clone)) == 3
    assert event_ids(old_clone) == event_ids(new_clone)
    unset = subprocess.run(["git", "config", "correx.writer"], cwd=old_clone, check=False)
    assert unset.returncode == 1  # the old clone never got a writer id
