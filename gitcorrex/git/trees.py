"""Trees as plain values: resolving revisions, listing what changed between two trees.

Diffs compare trees directly with rename detection off, so both sides of a rename,
deletions, mode and type changes and gitlinks all show up as paths, on raw bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gitcorrex.errors import UsageError

if TYPE_CHECKING:
    import pygit2

    from gitcorrex.git.repository import Repository


def resolve_tree(repo: Repository, rev: str) -> str:
    """The tree a revision names (`HEAD`, a commit, a tree, `main~2`...)."""
    import pygit2

    handle = repo.libgit2()
    try:
        return str(handle.revparse_single(rev).peel(pygit2.Tree).id)
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError) as exc:
        raise UsageError(f"unknown revision or not a tree: {rev!r}",
                         hint="name a commit, branch, tag or tree (see `git rev-parse`)") from exc


def head_tree(repo: Repository) -> str | None:
    """HEAD's tree, or None while HEAD is unborn."""
    handle = repo.libgit2()
    if handle.head_is_unborn:
        return None
    return str(handle.head.peel(_tree_type()).id)


def _tree_type() -> type[pygit2.Tree]:
    import pygit2

    return pygit2.Tree


def read_blob_at(repo: Repository, tree: str, path: str) -> bytes | None:
    """The bytes of `path` in `tree`; None when the tree has no blob there."""
    import pygit2

    handle = repo.libgit2()
    try:
        entry = handle[tree].peel(pygit2.Tree)[path]
    except KeyError:
        return None
    obj = handle[entry.id]
    return obj.data if isinstance(obj, pygit2.Blob) else None
