"""Merging two ledgers: line union per annotated object, anchors kept, compare-and-swap.

`git notes merge` loses the other side's anchors and `union` duplicates lines, so the merge
is ours: the two notes trees are walked together; an entry on one side only is taken as is
(anchors included), and a note both sides changed becomes the sorted union of its lines,
canonical lines de-duplicated (the same event is byte-identical wherever it was written),
blank lines dropped. The result does not depend on which side is "ours", so clones that
merge the same two tips build the same tree. Judging the lines (session `seq` conflicts)
is the caller's job: this module moves bytes only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pygit2
from pygit2.enums import FileMode, ObjectType, SortMode

from gitcorrex.errors import UnavailableError
from gitcorrex.git.identity import LedgerIdentity
from gitcorrex.git.notes_libgit2 import signatures, swap_ref
from gitcorrex.git.repository import Repository
from gitcorrex.git.write_faults import translates_write_faults

_HEX = frozenset("0123456789abcdef")
_OID_LENGTHS = (40, 64)


@dataclass(frozen=True)
class NoteUnion:
    """A note both sides changed: its subject and each side's bytes before the union."""

    subject: str
    ours: bytes
    theirs: bytes


@dataclass(frozen=True)
class MergedTree:
    """The merged notes tree, every note united from two different versions, and the note
    lines the other side brought (each distinct line once: an event on two subjects is one)."""

    tree: str
    unions: list[NoteUnion] = field(default_factory=list)
    gained: frozenset[bytes] = frozenset()


def is_ancestor(repo: Repository, ancestor: str, descendant: str) -> bool:
    """Whether `ancestor` is reachable from `descendant` (a commit is its own ancestor)."""
    if ancestor == descendant:
        return True
    handle = repo.shared_libgit2()
    return bool(handle.descendant_of(pygit2.Oid(hex=descendant), pygit2.Oid(hex=ancestor)))


def tips_missing_from(repo: Repository, tips: Sequence[str], base: str | None) -> list[str]:
    """The distinct `tips` that `base` does not contain (is not a descendant of), sorted.

    One revision walk from every tip with `base` hidden: one `descendant_of` per tip cost
    2-10 ms each against a ledger that 64 writers merged into (a merge-base search each).
    """
    unique = sorted(set(tips))
    if base is None or not unique:
        return unique
    handle = repo.shared_libgit2()
    walker = handle.walk(None, SortMode.NONE)
    for tip in unique:
        walker.push(pygit2.Oid(hex=tip))
    walker.hide(pygit2.Oid(hex=base))
    wanted = set(unique)
    found = {str(commit.id) for commit in walker if str(commit.id) in wanted}
    return sorted(found)


def merge_notes_trees(repo: Repository, ours: str, theirs: str) -> MergedTree:
    """The union of the notes trees of commits `ours` and `theirs`."""
    handle = repo.shared_libgit2()
    return merge_trees(repo, str(_tree_of(handle, ours).id), str(_tree_of(handle, theirs).id))


def merge_trees(repo: Repository, ours: str | None, theirs: str) -> MergedTree:
    """The union of notes trees `ours` (None: empty) and `theirs`, by tree id."""
    handle = repo.shared_libgit2()
    unions: list[NoteUnion] = []
    gained: set[bytes] = set()
    mine: Any = handle[ours] if ours is not None else handle[handle.TreeBuilder().write()]
    other: Any = handle[theirs]
    tree = _merge(handle, mine, other, "", _Found(unions, gained))
    return MergedTree(str(tree), unions, frozenset(gained))


def unite_lines(ours: bytes, theirs: bytes) -> bytes:
    """Sorted, de-duplicated, non-blank lines of both notes (`cat_sort_uniq`)."""
    lines = {line for line in ours.split(b"\n") + theirs.split(b"\n") if line.strip()}
    return b"".join(line + b"\n" for line in sorted(lines))


@dataclass(frozen=True)
class _Found:
    unions: list[NoteUnion]
    gained: set[bytes]


def _merge(handle: pygit2.Repository, ours: pygit2.Tree, theirs: pygit2.Tree, prefix: str,
           found: _Found) -> pygit2.Oid:
    builder = handle.TreeBuilder(ours)
    for entry in theirs:
        name = entry.name or ""
        mine: Any = ours[name] if name in ours else None  # noqa: SIM401 (no Tree.get)
        if mine is None:
            builder.insert(name, entry.id, entry.filemode)
            if _is_note_path(prefix + name):
                _collect_lines(handle, entry, found.gained)
        elif mine.id == entry.id:
            continue
        elif mine.type == ObjectType.TREE and entry.type == ObjectType.TREE:
            other: Any = handle[entry.id]
            sub = _merge(handle, mine, other, prefix + name + "/", found)
            builder.insert(name, sub, FileMode.TREE)
        elif mine.type == ObjectType.BLOB and entry.type == ObjectType.BLOB:
            blob_obj: Any = handle[entry.id]
            theirs_data: bytes = blob_obj.data
            found.unions.append(NoteUnion(_subject(prefix + name), mine.data, theirs_data))
            found.gained.update(_lines(theirs_data) - _lines(mine.data))
            blob = handle.create_blob(unite_lines(mine.data, theirs_data))
            builder.insert(name, blob, FileMode.BLOB)
        else:
            raise UnavailableError(
                f"cannot merge ledgers: {prefix + name} is a tree on one side and a blob on "
                "the other",
                hint="the ledger holds a foreign entry; inspect both with `git ls-tree`",
            )
    return builder.write()


def _is_note_path(path: str) -> bool:
    """Notes live under hex fanout names; `anchors/…` and other entries hold no lines."""
    return _HEX.issuperset(path.replace("/", ""))


def _collect_lines(handle: pygit2.Repository, entry: Any, into: set[bytes]) -> None:
    obj: Any = handle[entry.id]
    if obj.type == ObjectType.BLOB:
        into.update(_lines(obj.data))
        return
    for child in obj:
        if _HEX.issuperset(child.name or "x"):
            _collect_lines(handle, child, into)


def _lines(data: bytes) -> set[bytes]:
    return {line for line in data.split(b"\n") if line.strip()}


def _subject(path: str) -> str:
    """The annotated object's id for a note path (`ab/cdef…` → `abcdef…`), else the path."""
    joined = path.replace("/", "")
    return joined if len(joined) in _OID_LENGTHS and _HEX.issuperset(joined) else path


def _tree_of(handle: pygit2.Repository, commit: str) -> pygit2.Tree:
    obj = handle.get(commit)
    if not isinstance(obj, pygit2.Commit):
        raise UnavailableError(f"ledger commit {commit} is missing or not a commit",
                               hint="fetch the ledger again; run `git fsck`")
    return obj.tree


@translates_write_faults
def commit_merge(
    repo: Repository,
    ref: str,
    *,
    expected_tip: str | None,
    tree: str,
    parents: Sequence[str],
    message: str,
    identity: LedgerIdentity,
) -> str | None:
    """A merge commit on `ref` if it still points at `expected_tip` (None: if `ref` does not
    exist yet); None when it moved."""
    from gitcorrex.git import signing

    handle = repo.shared_libgit2()
    author, committer = signatures(identity)
    oids = [pygit2.Oid(hex=parent) for parent in parents]
    new = str(handle.create_commit(None, author, committer, message, pygit2.Oid(hex=tree),
                                   oids))
    if signing.is_signing_enabled(repo):
        new = signing.sign_commit(repo, new)
    return new if swap_ref(repo, ref, expected_tip, new, message) else None

