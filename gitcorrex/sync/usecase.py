"""`git correx sync [REMOTE]`: fetch, merge, push without force; again if the remote moved.

Each round: fetch the remote ledger into its tracking ref, integrate it into the local
ledger (nothing to do, a fast-forward, or a merge commit — all by compare-and-swap, so a
local writer appending meanwhile is never lost), then push the result without force. A
push rejected because another clone pushed first starts a new round, a bounded number of
times. A diverged session stops everything before anything is written.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gitcorrex.errors import UnavailableError
from gitcorrex.git import notes
from gitcorrex.git.identity import ledger_identity
from gitcorrex.git.notes_merge import commit_merge, is_ancestor, merge_notes_trees
from gitcorrex.git.notes_transfer import fetch_ledger, push_ledger, tracking_ref
from gitcorrex.git.repository import Repository
from gitcorrex.sync.conflicts import SeqConflict, find_seq_conflicts

DEFAULT_ATTEMPTS = 40


@dataclass(frozen=True)
class SyncResult:
    """`outcome`: up-to-date, pulled, pushed, merged-and-pushed, or conflict (nothing written)."""

    remote: str
    ref: str
    tracking: str
    outcome: str
    local_tip: str | None
    remote_tip: str | None
    attempts: int
    conflicts: list[SeqConflict] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {"remote": self.remote, "ref": self.ref, "tracking": self.tracking,
                "outcome": self.outcome, "local_tip": self.local_tip,
                "remote_tip": self.remote_tip, "attempts": self.attempts,
                "conflicts": [conflict.as_dict() for conflict in self.conflicts]}


@dataclass(frozen=True)
class _Integrated:
    tip: str | None
    merged: bool
    conflicts: list[SeqConflict]


def sync_ledger(
    repo: Repository,
    *,
    remote: str,
    max_attempts: int = DEFAULT_ATTEMPTS,
    pause: Callable[[float], None] = time.sleep,
) -> SyncResult:
    """Make the local and the remote ledger hold the union of both; see the module doc."""
    ref = notes.ledger_ref(repo)
    tracking = tracking_ref(repo, remote, ref)
    for attempt in range(1, max_attempts + 1):
        theirs = fetch_ledger(repo, remote, ref, tracking)
        step = _integrate(repo, ref, notes.ledger_tip(repo, ref), theirs, remote)
        if step is None:  # a local writer moved the ref meanwhile
            pause(_backoff(attempt))
            continue
        if step.conflicts:
            return SyncResult(remote, ref, tracking, "conflict", notes.ledger_tip(repo, ref),
                              theirs, attempt, step.conflicts)
        if step.tip is None or step.tip == theirs:
            outcome = "pulled" if step.merged else "up-to-date"
            return SyncResult(remote, ref, tracking, outcome, step.tip, theirs, attempt)
        if push_ledger(repo, remote, ref, step.tip, tracking):
            outcome = "merged-and-pushed" if step.merged else "pushed"
            return SyncResult(remote, ref, tracking, outcome, step.tip, step.tip, attempt)
        pause(_backoff(attempt))
    raise UnavailableError(
        f"sync with {remote}: the remote ledger kept moving; gave up after {max_attempts} "
        "rounds (the local ledger holds everything fetched so far)",
        hint="run `git correx sync` again",
    )


def _integrate(
    repo: Repository, ref: str, ours: str | None, theirs: str | None, remote: str
) -> _Integrated | None:
    """The local tip after taking in `theirs`; None when the local ref moved under us."""
    if theirs is None or (ours is not None and is_ancestor(repo, theirs, ours)):
        return _Integrated(ours, False, [])
    if ours is None or is_ancestor(repo, ours, theirs):
        moved = notes.swap_ref(repo, ref, ours, theirs,
                               f"git correx: sync fast-forward from {remote}")
        return _Integrated(theirs, True, []) if moved else None
    merged = merge_notes_trees(repo, ours, theirs)
    conflicts = find_seq_conflicts(merged.unions)
    if conflicts:
        return _Integrated(ours, False, conflicts)
    tip = commit_merge(repo, ref, expected_tip=ours, tree=merged.tree, parents=[ours, theirs],
                       message=f"git correx: merge ledger from {remote}",
                       identity=ledger_identity(repo))
    return None if tip is None else _Integrated(tip, True, [])


def _backoff(attempt: int) -> float:
    return random.uniform(0, 0.05 * 2 ** min(attempt, 5))
