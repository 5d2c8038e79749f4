"""The ledger's notes read and written with git's plumbing: the storage `notes.py` chooses
while this process has not opened libgit2 (pygit2 costs ~100 ms CPU to import, more than a
whole `verify` of a small change spends in git).

A commit is exactly what `notes_libgit2.write_notes_commit` writes — each subject's new lines
added at the note's levels (`note_levels.py`: the head at `ab/<38hex>` rewritten, a level
moved down to `ab/cd/…` or `ab/cd/ef/…` only when the one above outgrew its bound), new
anchors at `anchors/ab/<38hex>`, the same trees, parent, message and git-formed identities stamped
now — in five processes:
`cat-file --batch` reads the tip's trees and old note parts, `hash-object -w` stores each
note blob, `mktree --batch` every changed tree, `commit-tree` the commit (`GIT_*_DATE`
unset: libgit2 stamps the current time, so must we), and `update-ref REF NEW OLD` moves the
ref only if it still points at OLD: git's own compare-and-swap under the ref's lock. A place
holding something other than a plain blob is rare: then the commit is handed to
`notes_libgit2.write_notes_commit`. Reads are two processes at most: `git ls-tree`
finds a note's blobs, `git cat-file --batch` reads them: those live in `note_reads.py`,
which a reader imports without this writer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from gitcorrex.errors import GitCommandError, UnavailableError
from gitcorrex.git.cat_file import ObjectReader, StoredObject
from gitcorrex.git.identity import LedgerIdentity
from gitcorrex.git.note_levels import DEEPEST, append_at_levels
from gitcorrex.git.objects import lookup_objects
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.ref_create import create_ref_if_absent
from gitcorrex.git.repository import Repository
from gitcorrex.git.tree_write import (
    BLOB_MODE,
    TREE_MODE,
    Tree,
    parse_tree,
    tree_oid,
    write_trees,
)
from gitcorrex.git.write_faults import write_fault

ANCHORS = "anchors"
_ANCHOR_MODES = {"tree": TREE_MODE, "blob": BLOB_MODE}
_DATES = ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE")
T = TypeVar("T")
LOST_RACE = ("cannot lock ref", "but expected", "reference already exists")


class OtherFanoutError(Exception):
    """A note sits at a fanout this writer does not edit; libgit2's writer will."""


def object_types(repo: Repository, oids: list[str]) -> list[str | None]:
    """Each object's type ("tree", "blob", "commit", "tag"); None where it is not stored."""
    return [None if found is None else found.kind for found in lookup_objects(repo, oids)]


def write_notes_commit(repo: Repository, *, parent: str | None,
                       appends: Mapping[str, bytes], anchors: Mapping[str, str],
                       message: str, identity: LedgerIdentity) -> str:
    """A notes commit on top of `parent` (None: the ledger's first) appending to notes and
    adding anchors, stored and left off the ref (`swap_ref` moves it there); a note at
    another fanout is libgit2's to write."""
    with ObjectReader(repo.common_dir) as reader:
        top = reader.read(f"{parent}^{{tree}}") if parent else None
        root = _edited_or_none(repo, reader, top, appends, anchors)
    if root is None:
        from gitcorrex.git import notes_libgit2

        return notes_libgit2.write_notes_commit(repo, parent=parent, appends=appends,
                                                anchors=anchors,  # type: ignore[arg-type]
                                                message=message, identity=identity)
    trees = _changed_trees(root, repo.object_format)
    tree = _written(repo, lambda: write_trees(repo, trees))[-1]
    return _written(repo, lambda: _commit(repo, tree, parent, message, identity))


class _Edit:
    """A tree being edited: its entries, and the subtrees opened for editing by name (only
    those are written again; a subtree opened to look is kept in `looked`)."""

    def __init__(self, entries: Tree) -> None:
        self.entries = entries
        self.children: dict[str, _Edit] = {}
        self.looked: dict[str, _Edit] = {}

    def blob(self, name: str) -> str | None:
        """The id of the blob entry `name`; None when absent; OtherFanoutError when it is
        something else (a tree or an unusual mode: libgit2's writer handles those)."""
        found = self.entries.get(name)
        if found is None:
            return None
        if found[0] != BLOB_MODE:
            raise OtherFanoutError(name)
        return found[1]


def _edited_or_none(repo: Repository, reader: ObjectReader, top: StoredObject | None,
                    appends: Mapping[str, bytes], anchors: Mapping[str, str]) -> _Edit | None:
    """The root tree `top` (None: none yet) with the append's edits; None when a note sits
    at a place this writer does not edit."""
    try:
        return _edited_root(repo, reader, top, appends, anchors)
    except OtherFanoutError:
        return None


def _edited_root(repo: Repository, reader: ObjectReader, top: StoredObject | None,
                 appends: Mapping[str, bytes], anchors: Mapping[str, str]) -> _Edit:
    """Read what the append changes under `top`, write the new note blobs, edit the trees."""
    fmt = repo.object_format

    def look(edit: _Edit, name: str) -> _Edit | None:
        """The subtree `name` of `edit` (read once), or None when there is none."""
        if name in edit.children:
            return edit.children[name]
        if name not in edit.looked:
            found = edit.entries.get(name)
            if found is None or found[0] != TREE_MODE:
                return None
            stored = reader.read(found[1])
            edit.looked[name] = _Edit(parse_tree(stored.data, fmt) if stored else {})
        return edit.looked[name]

    def subtree(edit: _Edit, name: str) -> _Edit:
        """The subtree `name` of `edit`, opened for editing (an empty one when absent)."""
        if name not in edit.children:
            edit.children[name] = look(edit, name) or _Edit({})
            edit.looked.pop(name, None)
        return edit.children[name]

    root = _Edit(parse_tree(top.data, fmt) if top else {})
    for subject, data in appends.items():
        _append_note(repo, root, (subject, data), look, subtree, reader)
    for oid, kind in anchors.items():
        place = subtree(subtree(root, ANCHORS), oid[:2])
        current = place.entries.get(oid[2:])
        if current is None or current[1] != oid:
            place.entries[oid[2:]] = (_ANCHOR_MODES[kind], oid)
    return root


def _append_note(repo: Repository, root: _Edit, appended: tuple[str, bytes],
                 look: Callable[[_Edit, str], _Edit | None],
                 subtree: Callable[[_Edit, str], _Edit], reader: ObjectReader) -> None:
    """Add `data` to `subject`'s note at its levels (`note_levels.py`), as libgit2's
    writer does: the note's parts found at depths 0 to 3, the head rewritten, a level moved
    down only when the one above outgrew its bound."""
    subject, data = appended
    places: dict[int, str] = {}
    edit: _Edit | None = root
    for depth in range(DEEPEST + 1):
        if edit is None:
            break
        found = edit.blob(subject[2 * depth:])
        if found is not None:
            places[depth] = found
        edit = look(edit, subject[2 * depth:2 * depth + 2]) if depth < DEEPEST else None

    def held(depth: int) -> _Edit:
        """The tree holding depth `depth`'s place, opened for editing down from the root."""
        at = root
        for level in range(depth):
            at = subtree(at, subject[2 * level:2 * level + 2])
        return at

    def read(depth: int) -> bytes:
        stored = reader.read(places[depth])
        if stored is None:
            raise UnavailableError(f"note blob {places[depth]} is missing from "
                                   f"{repo.common_dir}", hint="run `git fsck`")
        return stored.data

    write = append_at_levels(places, read, data)
    for depth in write.cleared:
        del held(depth).entries[subject[2 * depth:]]
    held(write.depth).entries[subject[2 * write.depth:]] = (BLOB_MODE,
                                                            write_blob(repo, write.data))


def _changed_trees(root: _Edit, object_format: str) -> list[Tree]:
    """Every edited tree as a plain tree, children before their parent (root last). None is
    ever left empty: a place is cleared only when the note moved deeper, below it."""
    ordered: list[Tree] = []

    def flatten(edit: _Edit) -> Tree:
        tree = dict(edit.entries)
        for name, child in edit.children.items():
            written = flatten(child)
            ordered.append(written)
            tree[name] = (TREE_MODE, tree_oid(written, object_format))
        return tree

    ordered.append(flatten(root))
    return ordered


def _commit(repo: Repository, tree: str, parent: str | None, message: str,
            identity: LedgerIdentity) -> str:
    """`git commit-tree` with the message as given (stdin: no newline added) and git's own
    identities. With `correx.sign` on, the signed commit libgit2's writer ends with
    (`signing.create_signed_commit` on the same tree, parent, message and identities)."""
    from gitcorrex.git import signing

    parents = [parent] if parent else []
    if signing.is_signing_enabled(repo):
        return signing.create_signed_commit(repo, tree=tree, parents=parents, message=message,
                                            identity=identity)
    author, committer = identity.author, identity.committer
    env = {"GIT_AUTHOR_NAME": author.name, "GIT_AUTHOR_EMAIL": author.email,
           "GIT_COMMITTER_NAME": committer.name, "GIT_COMMITTER_EMAIL": committer.email}
    args = ["commit-tree", tree, *(arg for each in parents for arg in ("-p", each))]
    out = run_git(args, cwd=repo.common_dir, env=env, unset=_DATES,
                  stdin=message.encode("utf-8")).stdout
    return out.decode("ascii").strip()


def write_blob(repo: Repository, data: bytes) -> str:
    """Store `data` as a blob (`git hash-object -w`, no filters); its id."""
    args = ["hash-object", "-w", "--no-filters", "--stdin"]
    out = _written(repo, lambda: run_git(args, cwd=repo.common_dir, stdin=data).stdout)
    return out.decode("ascii").strip()


def swap_ref(repo: Repository, ref: str, expected: str | None, new: str,
                      message: str) -> bool:
    """Move `ref` from `expected` (None: must not exist) to `new` under git's ref lock;
    False when another writer got there first or holds the lock."""
    if expected is None:
        return create_ref_if_absent(repo.common_dir, ref, new, message)
    args = ["update-ref", "-m", message, ref, new, expected]
    result = run_git(args, cwd=repo.common_dir, check=False)
    if result.returncode == 0:
        return True
    stderr = decode_path(result.stderr)
    fault = write_fault(repo.common_dir, GitCommandError(["git", *args], result.returncode,
                                                         stderr))
    if fault is not None:
        raise fault
    if any(words in stderr for words in LOST_RACE):
        return False
    raise UnavailableError(f"could not update {ref}: {stderr.strip()}",
                           hint="run `git fsck` and check the repository's permissions")


def _written(repo: Repository, write: Callable[[], T]) -> T:
    """Run a git write; a failure caused by the machine (full disk, read-only, no access)
    becomes the EnvironmentFaultError naming the object store (exit 3)."""
    try:
        return write()
    except GitCommandError as exc:
        fault = write_fault(repo.common_dir, exc)
        if fault is not None:
            raise fault from exc
        raise
