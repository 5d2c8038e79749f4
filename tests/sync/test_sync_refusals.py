"""What the remote refuses: the writer ref is needed (exit 3, git's words); the shared ref
is opportunistic (a refusal is reported, the sync still succeeds)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git
from tests.ledger_facts import verify_tree
from tests.sync.test_sync import dirty_tree

REF = "refs/notes/correx"


def remote_refusing(tmp_path: Path, make_repo: Callable[..., Path], pattern: str) -> Path:
    """A clone whose origin (a local bare repository) has an `update` hook that declines
    every ref matching the shell `pattern`."""
    git(tmp_path, "init", "-q", "--bare", "origin.git")
    hook = tmp_path / "origin.git" / "hooks" / "update"
    hook.write_text(f'#!/bin/sh\ncase "$1" in {pattern}) echo "no: $1" >&2; exit 1;; esac\n')
    hook.chmod(0o755)
    clone = make_repo("clone")
    git(clone, "remote", "add", "origin", str(tmp_path / "origin.git"))
    return clone


def test_a_refused_writer_ref_is_unavailable_with_gits_words(
    tmp_path: Path, make_repo: Callable[..., Path], correx: Callable[..., CliResult],
) -> None:
    clone = remote_refusing(tmp_path, make_repo, "refs/notes/correx-writers/*")
    verify_tree(clone, dirty_tree(clone, "a.txt"))
    result = correx(clone, "sync")
    assert result.code == 3, result
    assert "refused refs/notes/correx-writers/" in result.stderr
    assert "hook declined" in result.stderr


def test_a_refused_shared_ref_is_reported_and_the_sync_succeeds(
    tmp_path: Path, make_repo: Callable[..., Path], correx: Callable[..., CliResult],
) -> None:
    clone = remote_refusing(tmp_path, make_repo, REF)
    verify_tree(clone, dirty_tree(clone, "a.txt"))
    result = correx(clone, "sync", "--json")
    assert result.code == 0, result
    report = json.loads(result.stdout)
    assert report["outcome"] == "pushed"
    assert report["refs_pushed"] == [f"refs/notes/correx-writers/{report['writer']}"]
    assert report["lost_races"] == [] and report["refused"][0].startswith(REF)
    assert f"origin refused {REF}" in result.stderr and "hook declined" in result.stderr
