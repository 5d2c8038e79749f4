"""`git correx log`: each commit with the verification status of its tree.

Batched: one `git rev-list` for the commits, one `git ls-tree` for the notes of all their
trees (statuses kept by note content: `tree_statuses.py`), and (with signatures) one
`git log --no-walk` for the ledger commits to verify.
"""

from __future__ import annotations

from gitcorrex import ledger
from gitcorrex.git import Repository, list_commits
from gitcorrex.review.log_lines import LogLine, LogResult
from gitcorrex.review.tree_statuses import tree_statuses


def log_commits(
    repo: Repository, *, revisions: list[str], limit: int | None, verify_signatures: bool
) -> LogResult:
    """Every commit of `revisions`, newest first, with its tree's latest verification."""
    commits = list_commits(repo, revisions, limit=limit)
    statuses, problems = tree_statuses(repo, [commit.tree for commit in commits])
    if not verify_signatures:
        return LogResult([LogLine(c, statuses[c.tree]) for c in commits], problems)
    from gitcorrex.ledger.signers import signers_of

    wanted = {s.tree: s.event for s in statuses.values() if s.event is not None}
    signers = signers_of(repo, ledger.ledger_tip(repo), wanted)
    return LogResult([LogLine(c, statuses[c.tree], signers.get(c.tree)) for c in commits],
                     problems)
