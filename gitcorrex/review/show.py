"""`git correx show`: everything the ledger knows about one tree, newest first."""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex import ledger
from gitcorrex.git import Repository, resolve_tree
from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.observed_pass import is_under
from gitcorrex.model.verification import VerificationFields
from gitcorrex.profiles.profile_file import tree_profiles


@dataclass(frozen=True)
class ShowResult:
    """`events` empty means nothing is recorded for the tree: unverified, not failed.
    `profile`: the blob of the tree's `.correx.toml`, the only profile a pass of it ran."""

    tree: str
    source: str
    events: list[RecordedEvent]
    problems: list[ledger.Problem]
    profile: str | None = None

    def counts(self, fields: VerificationFields) -> bool:
        """Whether a verification of this tree ran its own profile (model/observed_pass.py)."""
        return is_under(fields, self.profile)


def show_tree(repo: Repository, *, rev: str | None, state_key: str | None) -> ShowResult:
    """Events on REV's tree, or on the given workspace state key when REV is None."""
    tree = resolve_tree(repo, rev) if rev is not None else state_key
    if tree is None:
        raise ValueError("show_tree needs a revision or the workspace's state key")
    read = ledger.read_subject(repo, tree)
    newest_first = sorted(read.events, key=time_order, reverse=True)
    return ShowResult(tree, rev or "worktree", newest_first, list(read.problems),
                      tree_profiles(repo, [tree])[tree])
