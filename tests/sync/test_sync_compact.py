"""`git correx sync --compact`: writer refs folded into the shared ref, retired by lease."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.git import notes
from gitcorrex.git.notes_transfer import fetch_ledgers
from gitcorrex.sync.compact import compact_step
from gitcorrex.sync.round import Round
from gitcorrex.sync.unite import unite_tips
from tests.conftest import REPO_ROOT, CliResult, git, in_process
from tests.ledger_facts import verify_tree
from tests.sync.conftest import GitServer, remote_path
from tests.sync.fleet import run_fleet
from tests.sync.test_sync import dirty_tree, event_ids
from tests.sync.test_sync_writers import REF, WRITERS, remote_refs

TRACKING = "refs/notes/remotes/origin/correx"


def test_compact_folds_every_writer_ref_into_the_shared_ref_and_retires_them(
    shared_remote: Callable[[int], list[Path]], git_server: GitServer,
    correx: Callable[..., CliResult],
) -> None:
    one, two, ci = shared_remote(3)
    verify_tree(one, dirty_tree(one, "a.txt"), seconds=1)
    verify_tree(two, dirty_tree(two, "b.txt"), seconds=2)
    assert correx(one, "sync").code == 0
    assert correx(two, "sync").code == 0
    git(two, "push", "-q", "-f", "origin", f"{remote_refs(one)[REF]}~0:{REF}")  # shared lags
    result = correx(ci, "sync", "--compact", "--json")
    assert result.code == 0, result
    report = json.loads(result.stdout)
    assert report["outcome"] == "compacted"
    assert len(report["retired"]) == 2
    assert list(remote_refs(ci)) == [REF]
    assert len(event_ids(remote_path(git_server))) == 2
    assert git(ci, "for-each-ref", "refs/notes/remotes/origin/correx-writers/") == ""


def test_compact_keeps_a_writer_ref_that_moved_after_the_fetch(
    shared_remote: Callable[[int], list[Path]], git_server: GitServer,
    correx: Callable[..., CliResult],
) -> None:
    one, ci = shared_remote(2)
    git(one, "config", "correx.writer", "one")
    verify_tree(one, dirty_tree(one, "a.txt"), seconds=1)
    assert correx(one, "sync").code == 0
    repo = in_process(ci)
    fetched = fetch_ledgers(repo, "origin", REF, TRACKING)  # the compactor reads…
    verify_tree(one, dirty_tree(one, "late.txt"), seconds=2)  # …the writer moves on…
    git(one, "push", "-q", "origin", f"{REF}:{WRITERS}one")
    work = Round(repo, "origin", REF, TRACKING, "ci")
    united = unite_tips(repo, REF, ours=notes.ledger_tip(repo, REF), tips=fetched.tips,
                        message="test", settle=True)
    assert united is not None
    assert compact_step(work, united, fetched) == "compacted"  # …the compactor pushes
    assert work.retired == []
    assert any("stale info" in race for race in work.lost_races), work.lost_races
    assert WRITERS + "one" in remote_refs(ci)
    assert correx(ci, "sync", "--compact").code == 0
    assert len(event_ids(remote_path(git_server))) == 2
    assert list(remote_refs(ci)) == [REF]


def test_compact_of_an_empty_remote_is_up_to_date(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    (ci,) = shared_remote(1)
    result = correx(ci, "sync", "--compact", "--json")
    assert result.code == 0, result
    assert json.loads(result.stdout)["outcome"] == "up-to-date"


@pytest.mark.slow
def test_compaction_running_concurrently_with_writers_loses_nothing(
    shared_remote: Callable[[int], list[Path]], git_server: GitServer,
    correx: Callable[..., CliResult], tmp_path: Path,
) -> None:
    *writers, ci = shared_remote(7)
    stop = tmp_path / "stop"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    compactor = subprocess.Popen([sys.executable, "-m", "tests.sync.compactor", str(ci),
                                  str(stop)], cwd=REPO_ROOT, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        run_fleet(writers, 8, in_process=True)
    finally:
        stop.touch()
        out, err = compactor.communicate(timeout=300)
    assert compactor.returncode == 0, err.decode()
    runs, retired = (int(n) for n in out.split())
    assert runs >= 2 and retired >= 1, (runs, retired)  # it really ran among the writers
    # No writer syncs again: whatever the writers published must still be on the remote.
    assert correx(ci, "sync", "--compact").code == 0
    assert len(event_ids(remote_path(git_server))) == 6 * 8
    assert list(remote_refs(ci)) == [REF]
