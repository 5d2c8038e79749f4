"""`git correx log`: each commit with the verification status of its tree.

Batched: one `git rev-list` for the commits, one read of the notes tree for all their
trees, and (with signatures) one `git log --no-walk` for the ledger commits to verify.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.git.commit_log import LoggedCommit, list_commits
from gitcorrex.git.repository import Repository
from gitcorrex.model.note_lines import Problem
from gitcorrex.review.ledger_signers import Signer, signers_of
from gitcorrex.review.tree_events import read_subjects
from gitcorrex.review.tree_status import TreeStatus, tree_status


@dataclass(frozen=True)
class LogLine:
    """One commit; `signer` is set only when signatures were asked for and it has a status."""

    commit: LoggedCommit
    status: TreeStatus
    signer: Signer | None = None

    def as_dict(self) -> dict[str, object]:
        return {"commit": self.commit.sha, "tree": self.commit.tree,
                "subject": self.commit.subject, "status": self.status.as_dict(),
                "signer": None if self.signer is None else self.signer.as_dict()}


@dataclass(frozen=True)
class LogResult:
    lines: list[LogLine]
    problems: list[Problem]


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
