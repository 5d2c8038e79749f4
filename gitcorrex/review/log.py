"""`git correx log`: each commit with the verification status of its tree.

Batched: one `git rev-list` for the commits, one read of the notes tree for all their
trees, and (with signatures) one `git log --no-walk` for the ledger commits to verify.
"""

from __future__ import annotations

from gitcorrex.git.commit_log import list_commits
from gitcorrex.git.repository import Repository
from gitcorrex.ledger.subjects import read_subjects
from gitcorrex.review.ledger_signers import Signer, signers_of
from gitcorrex.review.log_lines import LogLine, LogResult
from gitcorrex.review.tree_status import tree_status


def log_commits(
    repo: Repository, *, revisions: list[str], limit: int | None, verify_signatures: bool
) -> LogResult:
    """Every commit of `revisions`, newest first, with its tree's latest verification."""
    commits = list_commits(repo, revisions, limit=limit)
    found = read_subjects(repo, (commit.tree for commit in commits))
    statuses = [tree_status(commit.tree, found.on(commit.tree)) for commit in commits]
    signers: dict[str, Signer] = {}
    if verify_signatures:
        wanted = {s.tree: s.event for s in statuses if s.event is not None}
        signers = signers_of(repo, found.tip, wanted)
    lines = [LogLine(commit, status, signers.get(commit.tree))
             for commit, status in zip(commits, statuses, strict=True)]
    return LogResult(lines, found.problems)
