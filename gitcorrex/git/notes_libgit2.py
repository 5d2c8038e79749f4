"""The ledger's notes read and written in-process by libgit2, with compare-and-swap: the
storage `notes.py` chooses once this process has opened libgit2 (no git process per step).

We walk the notes tree ourselves instead of using libgit2's note iterator: that iterator
descends into every entry, including `anchors/`, which holds whole workspace trees of tens
of thousands of files. Notes are found at any fanout git may have written (`<40hex>`,
`ab/<38hex>`, `ab/cd/<36hex>`…); we write a note at the levels `note_levels.py` chooses
(`ab/<38hex>` and, for a long note, `ab/cd/<36hex>` and `ab/cd/ef/<34hex>`) and anchors as
`anchors/ab/<38hex>`. Only plain values leave this module: hex oids, bytes, str.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

import pygit2
from pygit2.enums import FileMode, ObjectType

from gitcorrex.errors import UnavailableError, environmental_error
from gitcorrex.git.identity import LedgerIdentity
from gitcorrex.git.note_levels import DEEPEST, append_at_levels, note_path
from gitcorrex.git.note_reads import join_note_parts
from gitcorrex.git.ref_create import create_ref_if_absent
from gitcorrex.git.repository import Repository
from gitcorrex.git.write_faults import translates_write_faults, write_fault

ANCHORS = "anchors"
_ANCHOR_MODES = {"tree": FileMode.TREE, "blob": FileMode.BLOB}
Edits = dict[tuple[str, ...], "tuple[pygit2.Oid, int] | None"]
_TYPE_NAMES = {ObjectType.TREE: "tree", ObjectType.BLOB: "blob", ObjectType.COMMIT: "commit",
               ObjectType.TAG: "tag"}


def libgit2_version() -> str:
    """The libgit2 version pygit2 was built against; recorded in every event's `tool`."""
    return str(pygit2.LIBGIT2_VERSION)


def ledger_tip(repo: Repository, ref: str) -> str | None:
    """The commit the notes ref points at, or None when nothing was recorded yet."""
    found = repo.shared_libgit2().references.get(ref)
    return None if found is None else str(found.resolve().target)


@translates_write_faults
def write_blob(repo: Repository, data: bytes) -> str:
    """Store `data` as a blob and return its oid (idempotent)."""
    return str(repo.shared_libgit2().create_blob(data))


def object_types(repo: Repository, oids: list[str]) -> list[str | None]:
    """Each object's type ("tree", "blob", "commit", "tag"); None where it is not stored."""
    odb = repo.shared_libgit2().odb
    # read_header (pygit2 ≥ 1.19) avoids inflating the object; on Python 3.10 the newest
    # pygit2 is 1.18, which only has read.
    read = odb.read_header if hasattr(odb, "read_header") else odb.read
    found: list[str | None] = []
    for oid in oids:
        try:
            found.append(_TYPE_NAMES.get(read(oid)[0]))
        except (KeyError, ValueError, pygit2.GitError):
            found.append(None)
    return found


def read_note(repo: Repository, tip: str | None, subject_oid: str) -> bytes | None:
    """The note on `subject_oid` at notes commit `tip`; None when it has no note.

    A note split over several fanouts (possible after mixed writers) is concatenated in
    tree order, which is what `iter_all_notes` (all_notes.py) yields too.
    """
    if tip is None:
        return None
    root = _notes_tree(repo, tip)
    parts = [_blob_data(root, path) for path in _note_paths(root, subject_oid, 0)]
    return join_note_parts(parts) if parts else None


def note_blob_ids(repo: Repository, tip: str, subject_oid: str) -> list[str]:
    """The blobs holding the note on `subject_oid` at `tip`, in read order (deeper fanouts
    first, as `git ls-tree` lists them: `note_reads.note_blob_ids` gives the same list)."""
    root = _notes_tree(repo, tip)
    return [_entry_id(root, "/".join(path)) or "" for path in _note_paths(root, subject_oid, 0)]


@translates_write_faults
def write_notes_commit(repo: Repository, *, parent: str | None,
                       appends: Mapping[str, bytes],
                       anchors: Mapping[str, Literal["tree", "blob"]], message: str,
                       identity: LedgerIdentity) -> str:
    """A notes commit on top of `parent` (None: the ledger's first): `parent`'s tree with
    the appends and anchors, stored and left off the ref (`swap_ref` moves it there, only
    if the ref still points at `parent`: libgit2 checks the old value under the ref lock).
    A crash leaves the ref at the old or the new commit, never in between."""
    handle = repo.shared_libgit2()
    root = _notes_tree(repo, parent) if parent else None
    edits = {**_note_edits(handle, root, appends), **_anchor_edits(root, anchors)}
    tree_id, _ = _apply_edits(handle, root, edits)
    author, committer = signatures(identity)
    parents = [pygit2.Oid(hex=parent)] if parent else []
    new = handle.create_commit(None, author, committer, message, tree_id, parents)
    return str(_signed_if_configured(repo, new))


def signatures(identity: LedgerIdentity) -> tuple[pygit2.Signature, pygit2.Signature]:
    """libgit2 signatures (stamped now) for what git formed; libgit2 never forms its own."""
    author, committer = identity.author, identity.committer
    return (pygit2.Signature(author.name, author.email),
            pygit2.Signature(committer.name, committer.email))


def _signed_if_configured(repo: Repository, commit: pygit2.Oid) -> pygit2.Oid:
    """With `correx.sign` on, the same commit re-made signed (git/signing.py)."""
    from gitcorrex.git import signing

    if not signing.is_signing_enabled(repo):
        return commit
    return pygit2.Oid(hex=signing.sign_commit(repo, str(commit)))


def _note_edits(
    handle: pygit2.Repository, root: pygit2.Tree | None, appends: Mapping[str, bytes]
) -> Edits:
    """Each subject's new bytes added at the note's levels (`note_levels.py`): the head
    rewritten, a level moved down only when the one above outgrew its bound."""
    edits: Edits = {}
    for subject, data in appends.items():
        old = _note_paths(root, subject, 0) if root is not None else []
        places = {len(path) - 1: path for path in old if len(path) - 1 <= DEEPEST}
        write = append_at_levels(places, _part_reader(root, places), data)
        for depth in write.cleared:
            edits[places[depth]] = None
        blob = handle.create_blob(write.data)
        edits[note_path(subject, write.depth)] = (blob, FileMode.BLOB)
    return edits


def _part_reader(root: pygit2.Tree | None,
                 places: Mapping[int, tuple[str, ...]]) -> Callable[[int], bytes]:
    """Reads the part at a depth of `places` (only present places are ever asked)."""
    def read(depth: int) -> bytes:
        if root is None:
            raise KeyError(depth)
        return _blob_data(root, places[depth])

    return read


def _anchor_edits(
    root: pygit2.Tree | None, anchors: Mapping[str, Literal["tree", "blob"]]
) -> Edits:
    """New anchors only: rewriting an existing one would write two identical trees again."""
    edits: Edits = {}
    for oid, kind in anchors.items():
        path = (ANCHORS, oid[:2], oid[2:])
        if root is not None and _entry_id(root, "/".join(path)) == oid:
            continue
        edits[path] = (pygit2.Oid(hex=oid), _ANCHOR_MODES[kind])
    return edits


def _entry_id(root: pygit2.Tree, path: str) -> str | None:
    try:
        entry: Any = root[path]
    except KeyError:
        return None
    return str(entry.id)


def swap_ref(repo: Repository, ref: str, expected: str | None, new: str, message: str) -> bool:
    """Compare-and-swap `ref` from `expected` (None: must not exist yet) to `new`; False
    when another writer got there first or holds the lock."""
    handle = repo.shared_libgit2()
    try:
        if expected is None:  # libgit2's create is not atomic: see git/ref_create.py
            return create_ref_if_absent(Path(handle.path), ref, new, message)
        current = handle.references.get(ref)
        if current is None or str(current.target) != expected:
            return False
        current.set_target(pygit2.Oid(hex=new), message)
        return True
    except pygit2.AlreadyExistsError:
        return False
    except OSError as exc:
        fault = environmental_error(exc)
        if fault is None:
            return False  # the ref (or packed-refs) is locked by another writer
        raise write_fault(repo.common_dir, exc) or fault from exc  # no room for a lock
    except pygit2.GitError as exc:
        if "old reference value does not match" in str(exc):
            return False
        raise write_fault(repo.common_dir, exc) or UnavailableError(
            f"could not update {ref}: {exc}",
            hint="run `git fsck` and check the repository's permissions",
        ) from exc


def _apply_edits(
    handle: pygit2.Repository, base: pygit2.Tree | None, edits: Edits
) -> tuple[pygit2.Oid, int]:
    """Write `base` with `edits` (path → (oid, mode), or None to delete); (tree, entries)."""
    builder = handle.TreeBuilder(base) if base is not None else handle.TreeBuilder()
    nested: dict[str, Edits] = {}
    for path, value in edits.items():
        if len(path) > 1:
            nested.setdefault(path[0], {})[path[1:]] = value
        elif value is not None:
            builder.insert(path[0], value[0], value[1])
        elif builder.get(path[0]) is not None:
            builder.remove(path[0])
    for name, sub_edits in nested.items():
        sub = _subtree(base, name)
        oid, count = _apply_edits(handle, sub, sub_edits)
        if count:
            builder.insert(name, oid, FileMode.TREE)
        elif builder.get(name) is not None:
            builder.remove(name)
    return builder.write(), len(builder)


def _note_paths(tree: pygit2.Tree | None, subject: str, used: int) -> list[tuple[str, ...]]:
    """Where the note on `subject` sits under `tree` (deeper fanouts first: tree order)."""
    rest = subject[used:]
    paths: list[tuple[str, ...]] = []
    if tree is None:
        return paths
    sub = _subtree(tree, rest[:2]) if len(rest) > 2 else None
    if sub is not None:
        paths.extend((rest[:2], *path) for path in _note_paths(sub, subject, used + 2))
    if rest in tree and tree[rest].type == ObjectType.BLOB:
        paths.append((rest,))
    return paths


def _subtree(tree: pygit2.Tree | None, name: str) -> pygit2.Tree | None:
    if tree is None or name not in tree:
        return None
    entry: Any = tree[name]
    return entry if entry.type == ObjectType.TREE else None


def _blob_data(root: pygit2.Tree, path: tuple[str, ...]) -> bytes:
    obj: Any = root
    for name in path:
        obj = obj[name]
    data: bytes = obj.data
    return data


def _notes_tree(repo: Repository, tip: str) -> pygit2.Tree:
    commit = repo.shared_libgit2().get(tip)
    if not isinstance(commit, pygit2.Commit):
        raise UnavailableError(
            f"ledger tip {tip} is not a commit in {repo.git_dir}",
            hint="run `git fsck`; fetch the ledger ref again",
        )
    return commit.tree
