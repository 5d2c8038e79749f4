"""Every path a commit would change, from git's plumbing, on raw bytes.

Rename detection is off (a rename is a deletion plus an addition, so both sides are seen),
submodules are never ignored (`.gitmodules` `ignore = all` would hide gitlink changes), no
user diff configuration applies (plumbing, `--no-relative`, run from the top level), and
paths are NUL-separated bytes decoded with surrogateescape.
"""

from __future__ import annotations

from typing import NamedTuple

from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.repository import Repository

DIFF_FLAGS = ["-r", "-z", "--raw", "--no-renames", "--no-relative", "--ignore-submodules=none",
              "--no-ext-diff", "--no-textconv", "--abbrev=40"]
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
EMPTY_TREE_SHA256 = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"
GITLINK = "160000"
SYMLINK = "120000"
ABSENT = "000000"


class PathChange(NamedTuple):
    """One changed path. `change`: added, deleted, modified, mode_changed or type_changed."""

    path: str
    change: str
    old_mode: str
    new_mode: str
    old_oid: str
    new_oid: str

    @property
    def is_gitlink(self) -> bool:
        return GITLINK in (self.old_mode, self.new_mode)


def staged_changes(repo: Repository, *, base_tree: str | None) -> list[PathChange]:
    """What committing the index git would use (GIT_INDEX_FILE inside hooks) changes
    against `base_tree` (None: the empty tree, for an unborn HEAD)."""
    args = ["diff-index", "--cached", *DIFF_FLAGS, base_tree or EMPTY_TREE, "--"]
    return parse_raw_diff(run_git(args, cwd=repo.root).stdout)


def tree_changes(repo: Repository, old_tree: str | None, new_tree: str) -> list[PathChange]:
    """Every path that differs between two trees or commits (None: the empty tree).

    Remembered for the process by object names: one verify asks for HEAD's tree against
    the key up to three times (the observation's changed paths, its anchor's weight, the
    environment directories), a diff of 50,000 files' trees costs ~20 ms each, and two
    objects' difference never changes while a process runs."""
    old = old_tree or (EMPTY_TREE_SHA256 if repo.object_format == "sha256" else EMPTY_TREE)
    key = (str(repo.common_dir), old, new_tree)
    known = _DIFFS.get(key)
    if known is None:
        args = ["diff-tree", *DIFF_FLAGS, old, new_tree, "--"]
        known = _DIFFS[key] = parse_raw_diff(run_git(args, cwd=repo.common_dir).stdout)
        while len(_DIFFS) > _DIFFS_KEPT:
            del _DIFFS[next(iter(_DIFFS))]
    return list(known)


_DIFFS: dict[tuple[str, str, str], list[PathChange]] = {}
_DIFFS_KEPT = 8


def changed_paths(repo: Repository, old_tree: str | None, new_tree: str) -> list[str]:
    """Every path that differs between two trees (None: the empty tree), sorted: both
    sides of a rename, deletions, mode and type changes, gitlinks."""
    return sorted({change.path for change in tree_changes(repo, old_tree, new_tree)})


def parse_raw_diff(raw: bytes) -> list[PathChange]:
    """`:old new oldsha newsha status\\0path\\0` records (git diff --raw -z)."""
    fields = raw.split(b"\0")
    changes: list[PathChange] = []
    for index in range(0, len(fields) - 1, 2):
        header = fields[index].decode("ascii")
        if not header.startswith(":"):
            break
        old_mode, new_mode, old_oid, new_oid, status = header[1:].split(" ")
        path = decode_path(fields[index + 1])
        changes.append(PathChange(path, _change_type(status[0], old_mode, new_mode, old_oid,
                                                     new_oid), old_mode, new_mode, old_oid,
                                  new_oid))
    return changes


def _change_type(status: str, old_mode: str, new_mode: str, old_oid: str, new_oid: str) -> str:
    if status == "A":
        return "added"
    if status == "D":
        return "deleted"
    if status == "T":
        return "type_changed"
    if old_mode != new_mode and old_oid == new_oid:
        return "mode_changed"
    return "modified"
