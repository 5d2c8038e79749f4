"""Diffing trees from their raw bytes, for trees git itself refuses to parse.

A crafted tree may hold an entry with an empty name: `git diff-tree`, `git ls-tree` and
libgit2 all stop with "empty filename in tree entry", yet `git cat-file --batch` hands out
the object. Reading the entries ourselves turns such a tree into paths (with an empty
component) that the manifest checker rejects as non-canonical, instead of an unreadable
commit. The change types follow `git diff-tree -r --raw --no-renames`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from gitcorrex.errors import UnavailableError
from gitcorrex.git.changes import ABSENT, GITLINK, SYMLINK, PathChange
from gitcorrex.git.history import run_history_git
from gitcorrex.git.process import decode_path
from gitcorrex.git.repository import Repository

TREE_MODE = "040000"
ZERO_OID = "0" * 40


@dataclass(frozen=True)
class Entry:
    mode: str
    oid: str

    @property
    def is_tree(self) -> bool:
        return self.mode == TREE_MODE


Level: TypeAlias = "list[tuple[str, str | None, str | None]]"


def raw_tree_changes(repo: Repository, old: str | None, new: str) -> list[PathChange]:
    """Every changed non-tree path between two tree-ishes (old None: the empty tree)."""
    names = [f"{rev}^{{tree}}" for rev in (old, new) if rev]
    resolved = read_objects(repo, names)
    level: Level = [("", resolved[names[0]][0] if old else None, resolved[names[-1]][0])]
    changes: list[PathChange] = []
    while level:
        trees = _read_trees(repo, {oid for _, *pair in level for oid in pair if oid})
        next_level: Level = []
        for prefix, old_tree, new_tree in level:
            old_entries = trees[old_tree] if old_tree else {}
            new_entries = trees[new_tree] if new_tree else {}
            for name in sorted(old_entries.keys() | new_entries.keys()):
                _compare(
                    prefix + name, old_entries.get(name), new_entries.get(name), changes, next_level
                )
        level = next_level
    return sorted(changes, key=lambda change: change.path)


def _compare(
    path: str, old: Entry | None, new: Entry | None, changes: list[PathChange], next_level: Level
) -> None:
    """A directory side is walked (next level); a non-directory side is a change here."""
    if old == new:
        return
    old_tree = old.oid if old and old.is_tree else None
    new_tree = new.oid if new and new.is_tree else None
    if old_tree or new_tree:
        next_level.append((path + "/", old_tree, new_tree))
    old_leaf = old if old and not old.is_tree else None
    new_leaf = new if new and not new.is_tree else None
    if old_leaf or new_leaf:
        changes.append(_change(path, old_leaf, new_leaf))


def _change(path: str, old: Entry | None, new: Entry | None) -> PathChange:
    old_mode, old_oid = (old.mode, old.oid) if old else (ABSENT, ZERO_OID)
    new_mode, new_oid = (new.mode, new.oid) if new else (ABSENT, ZERO_OID)
    if old is None:
        kind = "added"
    elif new is None:
        kind = "deleted"
    elif _kind(old_mode) != _kind(new_mode):
        kind = "type_changed"
    elif old_oid == new_oid:
        kind = "mode_changed"
    else:
        kind = "modified"
    return PathChange(path, kind, old_mode, new_mode, old_oid, new_oid)


def _kind(mode: str) -> str:
    return mode if mode in (GITLINK, SYMLINK, TREE_MODE) else "file"


def _read_trees(repo: Repository, oids: set[str]) -> dict[str, dict[str, Entry]]:
    trees = {}
    for oid, (_, kind, data) in read_objects(repo, sorted(oids)).items():
        if kind != "tree":
            raise UnavailableError(f"object {oid} is a {kind}, not a tree")
        trees[oid] = parse_tree(data, hash_size=len(oid) // 2)
    return trees


def parse_tree(data: bytes, *, hash_size: int) -> dict[str, Entry]:
    """`<mode> <name>\\0<binary oid>` entries; names decoded with surrogateescape."""
    entries: dict[str, Entry] = {}
    position = 0
    while position < len(data):
        space = data.index(b" ", position)
        nul = data.index(b"\0", space)
        mode = data[position:space].decode("ascii").zfill(6)
        oid = data[nul + 1 : nul + 1 + hash_size].hex()
        entries[decode_path(data[space + 1 : nul])] = Entry(mode, oid)
        position = nul + 1 + hash_size
    return entries


def read_objects(repo: Repository, names: list[str]) -> dict[str, tuple[str, str, bytes]]:
    """`git cat-file --batch`: name → (oid, type, content); a missing object raises."""
    stdin = "".join(f"{name}\n" for name in names).encode()
    out = run_history_git(repo, ["cat-file", "--batch"], stdin=stdin)
    objects: dict[str, tuple[str, str, bytes]] = {}
    position = 0
    for name in names:
        end = out.index(b"\n", position)
        header = out[position:end].decode("ascii", "replace").split(" ")
        if len(header) != 3:
            raise UnavailableError(
                f"object {name} is not in this clone",
                hint="fetch the missing history (`git fetch --unshallow`)",
            )
        size = int(header[2])
        objects[name] = (header[0], header[1], out[end + 1 : end + 1 + size])
        position = end + 2 + size
    return objects
