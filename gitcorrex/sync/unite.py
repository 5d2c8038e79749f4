"""Uniting every fetched ledger tip into the local ledger: one commit, order-free, by CAS.

The tips are the shared ref's and each writer ref's. Those the local ledger already holds
(ancestors) are skipped; the rest are folded into the local notes tree with the line-union
merge (git/notes_merge.py), a grow-only set of canonical lines, so neither the order of the
tips nor who merges first changes the result. Then: nothing new (the union is the local
tree), a fast-forward to a fetched tip that already is the union, or one merge commit whose
parents are the local tip and every new tip. The local ref moves by compare-and-swap, so a
`verify` recording meanwhile is never lost: the caller sees None and starts a new round.
Two tips that give one session's `seq` to different events are reported, nothing written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gitcorrex import git
from gitcorrex.git import (
    NoteUnion,
    Repository,
    commit_merge,
    is_ancestor,
    ledger_identity,
    merge_trees,
    tips_missing_from,
    tree_of,
)
from gitcorrex.sync.conflicts import SeqConflict, find_seq_conflicts


@dataclass(frozen=True)
class United:
    """The local tip after uniting; `moved`: the local ref changed; `gained`: new lines."""

    tip: str | None
    moved: bool
    gained: int = 0
    conflicts: list[SeqConflict] = field(default_factory=list)


def unite_tips(repo: Repository, ref: str, *, ours: str | None, tips: Sequence[str],
               message: str, settle: bool = False) -> United | None:
    """Take every tip of `tips` into `ref` (at `ours`); None when `ref` moved meanwhile.

    `settle`: make every new tip an ancestor of the result even when it brings no new line
    (compaction retires only writer refs the shared ref descends from).
    """
    fresh = tips_missing_from(repo, tips, ours)
    if not fresh:
        return United(ours, False)
    tree, gained, unions = _fold(repo, ours, fresh)
    conflicts = find_seq_conflicts(unions)
    if conflicts:
        return United(ours, False, 0, conflicts)
    if ours is not None and tree == tree_of(repo, ours) and not settle:
        return United(ours, False)
    target = _fast_forward_target(repo, ours, fresh, tree, settle)
    if target is not None:
        moved = git.swap_ref(repo, ref, ours, target, message)
        return United(target, True, gained) if moved else None
    parents = ([ours] if ours is not None else []) + fresh
    new = commit_merge(repo, ref, expected_tip=ours, tree=tree, parents=parents,
                       message=message, identity=ledger_identity(repo))
    return None if new is None else United(new, True, gained)


def _fold(repo: Repository, ours: str | None, fresh: list[str]
          ) -> tuple[str, int, list[NoteUnion]]:
    """The union tree of `ours` and every fresh tip, the distinct lines gained, the unions."""
    tree = tree_of(repo, ours) if ours is not None else None
    gained: set[bytes] = set()
    unions: list[NoteUnion] = []
    for tip in fresh:
        merged = merge_trees(repo, tree, tree_of(repo, tip))
        tree = merged.tree
        gained |= merged.gained
        unions.extend(merged.unions)
    if tree is None:
        raise ValueError("nothing to unite: no local ledger and no fresh tip")
    return tree, len(gained), unions


def _fast_forward_target(repo: Repository, ours: str | None, fresh: list[str], tree: str,
                         settle: bool) -> str | None:
    """A fetched tip that already is the union and descends from `ours` (and, to settle,
    from every other fresh tip); None when a merge commit is needed."""
    for tip in fresh:
        if tree_of(repo, tip) != tree:
            continue
        if ours is not None and not is_ancestor(repo, ours, tip):
            continue
        if settle and not all(is_ancestor(repo, other, tip) for other in fresh):
            continue
        return tip
    return None
