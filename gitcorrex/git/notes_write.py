"""The ledger's notes commit made with git's plumbing: the writer of paths that must not
import libgit2 (`verify`'s plain path; pygit2 costs ~100 ms CPU to import).

It writes exactly what `notes.commit_notes` writes — each subject's whole note (old parts +
new lines) at `ab/<38hex>`, old places cleared, new anchors at `anchors/ab/<38hex>`, the
same trees, parent, message and git-formed identities stamped now — in five processes:
`cat-file --batch` reads the tip's trees and old note parts, `hash-object -w` stores each
note blob, `mktree --batch` every changed tree, `commit-tree` the commit (`GIT_*_DATE`
unset: libgit2 stamps the current time, so must we), and `update-ref REF NEW OLD` moves the
ref only if it still points at OLD: git's own compare-and-swap under the ref's lock. A note
git left at another fanout (flat, or `ab/cd/…` after many notes) is rare: then the append
is handed to `notes.commit_notes`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from gitcorrex.errors import (
    ConfigError,
    GitCommandError,
    LedgerContentionError,
    UnavailableError,
    environmental_error,
)
from gitcorrex.git.cat_file import ObjectReader
from gitcorrex.git.config import config_value, set_config_if_unset
from gitcorrex.git.identity import LedgerIdentity
from gitcorrex.git.note_reads import expand_notes_ref, join_note_parts
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
from gitcorrex.git.write_faults import object_store_fault

ANCHORS = "anchors"
_ANCHOR_MODES = {"tree": TREE_MODE, "blob": BLOB_MODE}
_DATES = ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE")
T = TypeVar("T")
LOST_RACE = ("cannot lock ref", "but expected", "reference already exists")


class OtherFanoutError(Exception):
    """A note sits at a fanout this writer does not edit; `notes.commit_notes` will."""


def commit_notes_with_git(repo: Repository, ref: str, *, expected_tip: str | None,
                          appends: Mapping[str, bytes], anchors: Mapping[str, str],
                          message: str, identity: LedgerIdentity) -> str | None:
    """`notes.commit_notes` without libgit2: the new tip, or None when another writer moved
    the ref first (the caller re-reads and retries)."""
    try:
        root = _edited_root(repo, expected_tip, appends, anchors)
    except OtherFanoutError:
        from gitcorrex.git.notes import commit_notes

        return commit_notes(repo, ref, expected_tip=expected_tip, appends=appends,
                            anchors=anchors, message=message,  # type: ignore[arg-type]
                            identity=identity)
    trees = _changed_trees(root, repo.object_format)
    tree = _written(repo, lambda: write_trees(repo, trees))[-1]
    new = _written(repo, lambda: _commit(repo, tree, expected_tip, message, identity))
    return new if swap_ref_with_git(repo, ref, expected_tip, new, message) else None


class _Edit:
    """A tree being edited: its entries, and the subtrees opened for editing by name."""

    def __init__(self, entries: Tree) -> None:
        self.entries = entries
        self.children: dict[str, _Edit] = {}

    def blob(self, name: str) -> str | None:
        """The id of the blob entry `name`; None when absent; OtherFanoutError when it is
        something else (a tree or an unusual mode: `notes.commit_notes` handles those)."""
        found = self.entries.get(name)
        if found is None:
            return None
        if found[0] != BLOB_MODE:
            raise OtherFanoutError(name)
        return found[1]


def _edited_root(repo: Repository, tip: str | None, appends: Mapping[str, bytes],
                 anchors: Mapping[str, str]) -> _Edit:
    """Read what the append changes at `tip` (one cat-file), and edit it."""
    fmt = repo.object_format
    with ObjectReader(repo.common_dir) as reader:
        def subtree(edit: _Edit, name: str) -> _Edit:
            if name not in edit.children:
                found = edit.entries.get(name)
                stored = reader.read(found[1]) if found and found[0] == TREE_MODE else None
                edit.children[name] = _Edit(parse_tree(stored.data, fmt) if stored else {})
            return edit.children[name]

        top = reader.read(f"{tip}^{{tree}}") if tip else None
        root = _Edit(parse_tree(top.data, fmt) if top else {})
        for subject, data in appends.items():
            fanout = subtree(root, subject[:2])
            if root.blob(subject) is not None or subject[2:4] in fanout.entries:
                raise OtherFanoutError(subject)  # a flat note, or a deeper fanout
            old = fanout.blob(subject[2:])
            stored = reader.read(old) if old is not None else None
            parts = [stored.data] if stored is not None else []
            blob = write_blob_with_git(repo, join_note_parts([*parts, data]))
            fanout.entries[subject[2:]] = (BLOB_MODE, blob)
        for oid, kind in anchors.items():
            place = subtree(subtree(root, ANCHORS), oid[:2])
            current = place.entries.get(oid[2:])
            if current is None or current[1] != oid:
                place.entries[oid[2:]] = (_ANCHOR_MODES[kind], oid)
    return root


def _changed_trees(root: _Edit, object_format: str) -> list[Tree]:
    """Every edited tree as a plain tree, children before their parent (root last)."""
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
    identities; signed when `correx.sign` is on (git/signing.py)."""
    from gitcorrex.git import signing

    author, committer = identity.author, identity.committer
    env = {"GIT_AUTHOR_NAME": author.name, "GIT_AUTHOR_EMAIL": author.email,
           "GIT_COMMITTER_NAME": committer.name, "GIT_COMMITTER_EMAIL": committer.email}
    args = ["commit-tree", tree, *(["-p", parent] if parent else [])]
    out = run_git(args, cwd=repo.common_dir, env=env, unset=_DATES,
                  stdin=message.encode("utf-8")).stdout
    commit = out.decode("ascii").strip()
    return signing.sign_commit(repo, commit) if signing.is_signing_enabled(repo) else commit


def write_blob_with_git(repo: Repository, data: bytes) -> str:
    """Store `data` as a blob (`git hash-object -w`, no filters); its id."""
    args = ["hash-object", "-w", "--no-filters", "--stdin"]
    out = _written(repo, lambda: run_git(args, cwd=repo.common_dir, stdin=data).stdout)
    return out.decode("ascii").strip()


def swap_ref_with_git(repo: Repository, ref: str, expected: str | None, new: str,
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
    fault = object_store_fault(repo.common_dir / "objects")
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
        fault = object_store_fault(repo.common_dir / "objects") or environmental_error(exc)
        if fault is not None:
            raise fault from exc
        raise


def ensure_merge_strategy(repo: Repository, ref: str) -> None:
    """Set notes.<name>.mergeStrategy=cat_sort_uniq when unset: the one lossless merge.

    Another process may hold the config lock right now; it is setting the same value, and
    the next append checks again, so a locked config is not an error.
    """
    key = f"notes.{ref.removeprefix('refs/notes/')}.mergeStrategy"
    set_config_if_unset(repo, key, "cat_sort_uniq")


def notes_ref_with_git(repo: Repository) -> str:
    """`git config correx.ref` expanded like `git notes --ref`; a name git would refuse is a
    ConfigError (exit 2), asked of `git check-ref-format` only when one is set."""
    value = config_value(repo, "correx.ref")
    ref = expand_notes_ref(value)
    if value and run_git(["check-ref-format", ref], cwd=repo.common_dir,
                         check=False).returncode != 0:
        raise invalid_ref_error(value)
    return ref


def invalid_ref_error(value: str) -> ConfigError:
    """What a `correx.ref` git cannot use is told (both writers say it the same way)."""
    return ConfigError(f"git config correx.ref: {value!r} is not a valid ref name",
                       hint="set it to a name like `correx` or `refs/notes/correx`")


def notes_tip_with_git(repo: Repository, ref: str) -> str | None:
    """The commit `ref` points at; None when it does not exist yet."""
    result = run_git(["rev-parse", "-q", "--verify", f"{ref}^{{commit}}"],
                     cwd=repo.common_dir, check=False)
    return result.stdout.decode("ascii").strip() if result.returncode == 0 else None


def contention_error(repo: Repository, ref: str, attempts: int) -> LedgerContentionError:
    """Name a left-over lock file; never remove it ourselves (its owner may be alive)."""
    locks = [repo.common_dir / f"{ref}.lock", repo.common_dir / "packed-refs.lock"]
    held = next((path for path in locks if path.exists()), None)
    if held is None:
        return LedgerContentionError(
            f"could not update {ref} after {attempts} attempts: other writers kept moving "
            "it; nothing was recorded",
            hint="retry; if it persists, find the looping writer",
        )
    return LedgerContentionError(
        f"could not update {ref} after {attempts} attempts: lock file {held} exists; "
        "nothing was recorded",
        hint=f"if no git or git correx process is running, delete {held} and retry",
    )
