"""The scan: a baseline tree against a state tree, both read from git's objects.

Only what the change touched is read: `git diff-tree` (rename detection off, so a moved
file is a deletion plus an addition and both sides are parsed) names the changed paths; the
test files among them are parsed on both sides, the check files (check_commands.py) and
pytest's configuration (runner_config.py) compared. Nothing is read
from the work tree: the state is the tree the gate is about (a state key, a commit's tree).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gitcorrex import git
from gitcorrex.integrity.check_commands import check_weakenings, is_check_file
from gitcorrex.integrity.compare import compare_cases
from gitcorrex.integrity.findings import Weakening
from gitcorrex.integrity.read import read_side
from gitcorrex.integrity.runner_config import is_runner_config, runner_weakenings
from gitcorrex.integrity.suite_paths import tests_language

BLOB_MODES = ("100644", "100755")
ABSENT_OID = frozenset({"0" * 40, "0" * 64})


@dataclass(frozen=True)
class Scan:
    """What the scan of `state` against `baseline` found, and how much it read."""

    baseline: str
    state: str
    findings: tuple[Weakening, ...]
    test_files: int = 0


def scan_trees(repo: git.Repository, *, baseline: str, state: str) -> Scan:
    """Every weakening from `baseline`'s tests and checks to `state`'s (both tree ids)."""
    if baseline == state:
        return Scan(baseline, state, ())
    changes = git.tree_changes(repo, baseline, state)
    tests = [(c, language) for c in changes
             if (language := tests_language(c.path)) is not None]
    checks = [c for c in changes if is_check_file(c.path) or is_runner_config(c.path)]
    held = _holding(repo, state)
    blobs = git.read_blobs(repo, {oid for change in [*[c for c, _ in tests], *checks]
                                  for oid in _sides(change) if oid is not None})
    old = read_side({c.path: (language, blobs[before]) for c, language in tests
                     if (before := _sides(c)[0]) is not None})
    new = read_side({c.path: (language, blobs[after]) for c, language in tests
                     if (after := _sides(c)[1]) is not None})
    found = compare_cases(old, new)
    for change in checks:
        before, after = _sides(change)
        old_blob, new_blob = blobs.get(before or ""), blobs.get(after or "")
        found.extend(runner_weakenings(change.path, old_blob, new_blob, held)
                     if is_runner_config(change.path)
                     else check_weakenings(change.path, old_blob, new_blob))
    return Scan(baseline, state, tuple(found), len(tests))


def _holding(repo: git.Repository, tree: str) -> Callable[[list[str]], set[str]]:
    """Which of some paths `tree` holds (any entry: a directory, a file)."""
    def held(paths: list[str]) -> set[str]:
        modes = git.path_modes(repo, tree, [p.strip("/") for p in paths])
        return {path for path in paths if modes.get(path.strip("/")) is not None}
    return held


def _sides(change: git.PathChange) -> tuple[str | None, str | None]:
    """(old blob, new blob) of a changed path; None where that side is no regular file."""
    before = change.old_oid if change.old_mode in BLOB_MODES and \
        change.old_oid not in ABSENT_OID else None
    after = change.new_oid if change.new_mode in BLOB_MODES and \
        change.new_oid not in ABSENT_OID else None
    return before, after
