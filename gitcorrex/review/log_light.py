"""`git correx log` as a read path: no click, pydantic or pygit2 for what was read before.

What is deferred, and why. `log` over 1,000 commits took ~0.9 s, most of it loading
click, pydantic with every event model and pygit2, then parsing 1,000 events into models.
A tree's status (its latest verification) and its ledger problems depend on nothing but
the blobs of the tree's note, and notes only grow by new blobs. So:
- the commits come from one `git rev-list` (`git/commit_log.py`), and the note blobs of
  all their trees from one `git ls-tree` (`ledger_blobs.py`);
- each status is stored keyed by those blob ids (`git/fold_store.py`, table `log-status-2`:
  a status may carry `problem` since reports read payload classes, which the older table's
  readers would refuse, so the two never share a file);
- only trees whose notes changed since are read (`git cat-file --batch`) and folded by
  the same code the full path runs (`tree_status.py`), which alone loads the models.
Anything unusual (no ledger ref, signatures asked for) is left to the full path (None).
"""

from __future__ import annotations

from pathlib import Path

from gitcorrex.git.commit_log import LoggedCommit, list_commits
from gitcorrex.git.config import config_value
from gitcorrex.git.fold_store import load_table, store_table
from gitcorrex.git.repository import Repository
from gitcorrex.ledger_blobs import notes_blobs, read_notes
from gitcorrex.model.ledger_problem import Problem
from gitcorrex.review.log_lines import LogLine, LogResult, TreeStatus

TYPE_CHECKING = False  # no `typing` at run time: the stored-status path never needs it (3 ms)
if TYPE_CHECKING:
    from typing import Any

TABLE = "log-status-2"
TABLE_LIMIT = 50_000


def light_log(repo: Repository, *, revisions: list[str], limit: int | None) -> LogResult | None:
    """What `log_commits` returns without signatures; None to let the full path answer."""
    commits = list_commits(repo, revisions, limit=limit)
    trees = list(dict.fromkeys(commit.tree for commit in commits))
    blobs = notes_blobs(_where(repo), config_value(repo, "correx.ref"), trees) if trees else {}
    if blobs is None:
        return None
    table = load_table(repo.common_dir, TABLE)
    missing = [t for t in trees if t in blobs and ",".join(blobs[t]) not in table]
    if missing:
        table.update(_fold(repo, missing, blobs))
        store_table(repo.common_dir, TABLE, table, TABLE_LIMIT)
    return _result(commits, trees, blobs, table)


def _fold(repo: Repository, trees: list[str], blobs: dict[str, list[str]]) -> dict[str, Any]:
    """Status and problems of each tree's note, by the full path's own code. The cyclic
    collector is paused meanwhile, as the ledger's scan pauses it: everything made here is
    kept, and its passes over it cost ~1 % of a `log` that folds 1,000 notes."""
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        return _fold_paused(repo, trees, blobs)
    finally:
        if collecting:
            gc.enable()


def _fold_paused(repo: Repository, trees: list[str],
                 blobs: dict[str, list[str]]) -> dict[str, Any]:
    from gitcorrex.model.note_lines import scan_notes
    from gitcorrex.review.tree_status import tree_status

    contents = read_notes(_where(repo), {tree: blobs[tree] for tree in trees})
    folded: dict[str, Any] = {}
    for tree in trees:
        scanned = scan_notes([(tree, contents[tree])])
        status = tree_status(tree, scanned.entries).as_dict()
        status.pop("tree")
        problems = [[p.line, p.reason, p.excerpt] for p in scanned.problems]
        folded[",".join(blobs[tree])] = {"status": status, "problems": problems}
    return folded


def _result(commits: list[LoggedCommit], trees: list[str], blobs: dict[str, list[str]],
            table: dict[str, Any]) -> LogResult:
    problems: list[Problem] = []
    statuses: dict[str, TreeStatus] = {}
    for tree in trees:
        stored = table.get(",".join(blobs[tree])) if tree in blobs else None
        if stored is None:
            statuses[tree] = TreeStatus(tree, "none")
            continue
        statuses[tree] = TreeStatus(tree, **stored["status"])
        problems += [Problem(tree, line, reason, excerpt)
                     for line, reason, excerpt in stored["problems"]]
    return LogResult([LogLine(c, statuses[c.tree]) for c in commits], problems)


def _where(repo: Repository) -> Path:
    """Where git runs: the work tree (its own config counts), else the git dir."""
    return repo.work_tree or repo.git_dir
