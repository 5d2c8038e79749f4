"""`check --require-pass`: the range's head must already have a recorded pass on its tree.

For CI that trusts verifications recorded elsewhere (a developer's clone, an agent's run)
instead of running the commands again: the ledger is fetched, and only a `pass` on
exactly the head's tree counts; fail, unavailable and none all fail the check.
"""

from __future__ import annotations

from gitcorrex.git.history import tree_of
from gitcorrex.git.repository import Repository
from gitcorrex.review.tree_events import read_subjects
from gitcorrex.review.tree_status import TreeStatus, tree_status


def head_status(repo: Repository, *, commit: str) -> TreeStatus:
    """The latest verification of `commit`'s tree; `result` is "pass" only on a pass."""
    tree = tree_of(repo, commit)
    return tree_status(tree, read_subjects(repo, [tree]).on(tree))
