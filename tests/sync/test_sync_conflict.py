"""A session continued on two clones is a conflict: reported, nothing merged or pushed."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git
from tests.ledger_facts import verify_tree
from tests.sync.conftest import GitServer, remote_path

REF = "refs/notes/correx"


def test_diverged_session_seq_is_a_conflict_and_nothing_moves(
    shared_remote: Callable[[int], list[Path]], git_server: GitServer,
    correx: Callable[..., CliResult],
) -> None:
    one, two = shared_remote(2)
    tree = git(one, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(one, tree, "fail", session="run-1", seconds=1)
    assert correx(one, "sync").code == 0
    assert correx(two, "sync").code == 0
    ours = verify_tree(one, tree, "pass", session="run-1", seconds=2)
    theirs = verify_tree(two, tree, "fail", session="run-1", seconds=3)
    assert ours.seq == theirs.seq == 2
    assert correx(one, "sync").code == 0
    local_before = git(two, "rev-parse", REF).strip()
    remote_before = git(remote_path(git_server), "rev-parse", REF).strip()

    result = correx(two, "sync", "--json")

    assert result.code == 1, result
    conflicts = json.loads(result.stdout)["conflicts"]
    assert conflicts == [{"session": "run-1", "seq": 2, "ours": theirs.id, "theirs": ours.id,
                          "ours_kind": theirs.kind, "theirs_kind": ours.kind}]
    assert "session run-1 seq 2" in result.stderr
    assert git(two, "rev-parse", REF).strip() == local_before
    assert git(remote_path(git_server), "rev-parse", REF).strip() == remote_before


def test_sessions_that_did_not_diverge_merge(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    one, two = shared_remote(2)
    tree = git(one, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(one, tree, "pass", session="run-a", seconds=1)
    verify_tree(two, tree, "pass", session="run-b", seconds=2)
    assert correx(one, "sync").code == 0
    result = correx(two, "sync")
    assert result.code == 0, result
    replayed = correx(two, "replay", "--json")
    sessions = sorted(e["session"] for e in json.loads(replayed.stdout)["events"])
    assert sessions == ["run-a", "run-b"]


def test_a_session_diverged_between_two_writer_refs_is_a_conflict_for_a_reader(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    one, two, reader = shared_remote(3)
    tree = git(one, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(one, tree, "fail", session="run-1", seconds=1)
    assert correx(one, "sync").code == 0
    assert correx(two, "sync").code == 0
    verify_tree(one, tree, "pass", session="run-1", seconds=2)
    verify_tree(two, tree, "fail", session="run-1", seconds=3)
    assert correx(one, "sync").code == 0
    # two published at the same instant as one (it fetched before one's push landed)
    git(two, "push", "-q", "origin", f"{REF}:refs/notes/correx-writers/two")

    result = correx(reader, "sync", "--json")

    assert result.code == 1, result
    conflicts = json.loads(result.stdout)["conflicts"]
    assert [(c["session"], c["seq"]) for c in conflicts] == [("run-1", 2)]
    missing = subprocess.run(["git", "rev-parse", "-q", "--verify", REF], cwd=reader,
                             capture_output=True, check=False)
    assert missing.returncode == 1  # nothing written
