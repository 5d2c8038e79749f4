"""StateProbe: two measurements on one private index equal two fresh computations."""

from __future__ import annotations

import os
from pathlib import Path

from gitcorrex.git.repository import discover
from gitcorrex.git.state import TEMP_INDEX_PREFIX, StateProbe
from tests.conftest import write
from tests.git.state_helpers import reference_key


def test_probe_sees_edits_additions_and_deletions_between_measurements(repo: Path) -> None:
    with StateProbe(discover(repo)) as probe:
        assert probe.measure().state_key == reference_key(repo)
        write(repo, "README.md", "changed\n")
        assert probe.measure().state_key == reference_key(repo)
        write(repo, "new/file.txt", "new\n")
        assert probe.measure().state_key == reference_key(repo)
        os.unlink(repo / "new" / "file.txt")
        os.unlink(repo / "README.md")
        assert probe.measure().state_key == reference_key(repo)


def test_unchanged_workspace_measures_the_same_key_twice(repo: Path) -> None:
    write(repo, "dirty.txt", "untracked\n")
    with StateProbe(discover(repo)) as probe:
        first = probe.measure()
        assert probe.measure() == first


def test_begin_measures_in_the_background_and_close_cleans_up(repo: Path) -> None:
    write(repo, "dirty.txt", "untracked\n")
    with StateProbe(discover(repo)).begin() as probe:
        assert probe.measure().state_key == reference_key(repo)
    assert not [p for p in (repo / ".git").iterdir() if p.name.startswith(TEMP_INDEX_PREFIX)]


def test_close_while_measuring_waits_and_leaves_no_index(repo: Path) -> None:
    StateProbe(discover(repo)).begin().close()
    assert not [p for p in (repo / ".git").iterdir() if p.name.startswith(TEMP_INDEX_PREFIX)]
