"""The ledger's objects are packed as they accumulate: every `correx.packEvents` events."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gitcorrex.errors import ConfigError
from gitcorrex.git.ledger_pack import COUNTER, PACKED
from tests.conftest import git
from tests.ledger_facts import verify_tree

REF = "refs/notes/correx"


def loose_ledger_objects(repo: Path) -> list[str]:
    """Objects reachable from the ledger that are still loose files."""
    listed = git(repo, "rev-list", "--objects", REF).split("\n")
    oids = [line.split(" ")[0] for line in listed if line]
    objects = repo / ".git" / "objects"
    return [oid for oid in oids if (objects / oid[:2] / oid[2:]).exists()]


def record_states(repo: Path, count: int, start: int = 0) -> None:
    for number in range(start, start + count):
        (repo / "state.txt").write_text(f"{number}\n")
        git(repo, "add", "-A")
        verify_tree(repo, git(repo, "write-tree").strip(), seconds=number)
        git(repo, "reset", "-q")


def test_the_append_that_reaches_pack_events_packs_the_ledger(repo: Path) -> None:
    git(repo, "config", "correx.packEvents", "4")
    record_states(repo, 3)
    assert len(loose_ledger_objects(repo)) > 3 * 3
    record_states(repo, 1, start=3)
    assert loose_ledger_objects(repo) == []
    assert (repo / ".git" / "correx" / COUNTER).read_bytes() == b""
    packed = (repo / ".git" / "correx" / PACKED).read_text().strip()
    assert packed == git(repo, "rev-parse", REF).strip()


def test_the_next_pack_takes_only_what_is_new(repo: Path) -> None:
    git(repo, "config", "correx.packEvents", "2")
    record_states(repo, 2)
    packs = set((repo / ".git" / "objects" / "pack").glob("*.pack"))
    record_states(repo, 2, start=2)
    new = set((repo / ".git" / "objects" / "pack").glob("*.pack")) - packs
    assert len(new) == 1
    listed = git(repo, "verify-pack", "-v", str(new.pop().with_suffix(".idx")))
    commits = [line for line in listed.split("\n") if " commit " in line]
    assert len(commits) == 2  # the two new ledger commits, not the two packed before
    assert loose_ledger_objects(repo) == []


def test_pack_events_zero_never_packs(repo: Path) -> None:
    git(repo, "config", "correx.packEvents", "0")
    record_states(repo, 3)
    assert len(loose_ledger_objects(repo)) > 3 * 3


def test_pack_events_not_a_number_stops_the_append_before_it_writes(repo: Path) -> None:
    git(repo, "config", "correx.packEvents", "often")
    with pytest.raises(ConfigError, match=r"correx\.packEvents"):
        record_states(repo, 1)
    missing = subprocess.run(["git", "rev-parse", "-q", "--verify", REF], cwd=repo,
                             capture_output=True, check=False)
    assert missing.returncode == 1
    assert ConfigError("x").exit_code == 2
