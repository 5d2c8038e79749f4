"""Clones recording and syncing at the same time through one `git daemon` lose nothing,
and, each publishing to its own writer ref, almost never need a second round."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.sync.ledger_sync import sync_ledger
from tests.conftest import in_process
from tests.sync.conftest import GitServer, remote_path
from tests.sync.fleet import run_fleet, verification_ids


def final_round_everywhere(clones: list[Path]) -> set[str]:
    """One more sync per clone, in turn; then every clone must hold what all recorded."""
    for path in clones:
        sync_ledger(in_process(path), remote="origin")
    return verification_ids(clones[-1])


@pytest.mark.slow
def test_six_clones_syncing_concurrently_end_with_all_events(
    shared_remote: Callable[[int], list[Path]], git_server: GitServer,
) -> None:
    clones = shared_remote(6)
    run_fleet(clones, 20, in_process=True)
    expected = final_round_everywhere(clones)
    assert len(expected) == 6 * 20
    for path in clones:
        assert verification_ids(path) == expected
    assert verification_ids(remote_path(git_server)) == expected  # the shared ref too


@pytest.mark.slow
def test_32_clones_x_3_syncs_concurrently_all_succeed_in_few_rounds(
    shared_remote: Callable[[int], list[Path]],
) -> None:
    clones = shared_remote(32)
    rounds = run_fleet(clones, 3)
    expected = final_round_everywhere(clones)
    assert len(expected) == 32 * 3
    for path in clones:
        assert verification_ids(path) == expected
    assert sum(rounds) / len(rounds) <= 1.5, rounds
    assert max(rounds) <= 3, rounds
