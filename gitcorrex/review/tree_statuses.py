"""Each tree's verification status, kept by the content of its note: the reader behind
`git correx log`.

What is deferred, and why. `log` over 1,000 commits took ~0.9 s, most of it loading
click, pydantic with every event model and pygit2, then parsing 1,000 events into models.
A tree's status (its latest verification under its own profile) and its ledger problems
depend on nothing but the blobs of the tree's note and the tree's profile blob, and notes
only grow by new blobs. So:
- the note blobs of all the trees come from one `git ls-tree` (`ledger.note_blobs`);
- a status is decided under the tree's own profile (model/observed_pass.py), a property
  of the tree: the blob of every tree's `.correx.toml` comes from one `git cat-file`;
- each status is stored keyed by those note blob ids and the tree's profile blob
  (`git/fold_store.py`, table `log-status-4`: the older tables held statuses decided
  without the profile (1, 2) or without the flaky marker (3), so the tables never share a
  file);
- only trees whose notes changed since are read (`git cat-file --batch`) and folded
  (`tree_status.py`), which alone loads the models.
"""

from __future__ import annotations

from gitcorrex import ledger
from gitcorrex.git import Repository, load_table, store_table
from gitcorrex.model.ledger_problem import Problem
from gitcorrex.profiles.profile_file import tree_profiles
from gitcorrex.review.log_lines import TreeStatus

TYPE_CHECKING = False  # no `typing` at run time: the stored-status path never needs it (3 ms)
if TYPE_CHECKING:
    from typing import Any

TABLE = "log-status-4"
TABLE_LIMIT = 50_000


def tree_statuses(repo: Repository, trees: list[str]) -> tuple[dict[str, TreeStatus],
                                                               list[Problem]]:
    """tree → its status (`none` for a tree without a note), and the ledger problems found
    in the trees' notes."""
    found = ledger.note_blobs(repo, trees)
    noted = [tree for tree in dict.fromkeys(trees) if tree in found.blobs]
    keys = _keys(found, tree_profiles(repo, noted) if noted else {})
    table = load_table(repo.common_dir, TABLE)
    missing = [tree for tree in noted if keys[tree][0] not in table]
    if missing:
        table.update(_fold(found, missing, keys))
        store_table(repo.common_dir, TABLE, table, TABLE_LIMIT)
    statuses: dict[str, TreeStatus] = {}
    problems: list[Problem] = []
    for tree in dict.fromkeys(trees):
        stored = table.get(keys[tree][0]) if tree in keys else None
        if stored is None:
            statuses[tree] = TreeStatus(tree, "none")
            continue
        statuses[tree] = TreeStatus(tree, **stored["status"])
        problems += [Problem(tree, line, reason, excerpt)
                     for line, reason, excerpt in stored["problems"]]
    return statuses, problems


def _keys(found: ledger.NoteBlobs,
          profiles: dict[str, str | None]) -> dict[str, tuple[str, str | None]]:
    """tree → (what its stored status is kept under, its profile blob): the note's
    content and the profile it is judged under."""
    return {tree: (f"{found.key(tree)} {profile or '-'}", profile)
            for tree, profile in profiles.items()}


def _fold(found: ledger.NoteBlobs, trees: list[str],
          keys: dict[str, tuple[str, str | None]]) -> dict[str, Any]:
    """Status and problems of each tree's note. The cyclic collector is paused meanwhile, as
    the ledger's scan pauses it: everything made here is kept, and its passes over it cost
    ~1 % of a `log` that folds 1,000 notes."""
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        return _fold_paused(found, trees, keys)
    finally:
        if collecting:
            gc.enable()


def _fold_paused(found: ledger.NoteBlobs, trees: list[str],
                 keys: dict[str, tuple[str, str | None]]) -> dict[str, Any]:
    from gitcorrex.model.note_lines import scan_notes
    from gitcorrex.review.tree_status import tree_status

    contents = found.read(trees)
    folded: dict[str, Any] = {}
    for tree in trees:
        scanned = scan_notes([(tree, contents[tree])])
        key, profile = keys[tree]
        status = tree_status(tree, scanned.entries, profile).as_dict()
        status.pop("tree")
        problems = [[p.line, p.reason, p.excerpt] for p in scanned.problems]
        folded[key] = {"status": status, "problems": problems}
    return folded
