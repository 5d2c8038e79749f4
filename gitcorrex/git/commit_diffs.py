"""Many commit diffs in one `git diff-tree --stdin` process, with the same flags as a hook.

Each pair is (commit, parent): the commit's tree against that parent's (None: the empty
tree, for a root commit). A tree git itself refuses to parse (a crafted entry with an empty
name) makes the batch fail; those pairs are then read entry by entry from the raw objects,
so a crafted tree is reported as its paths, never as "could not read".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from gitcorrex.errors import GitCommandError
from gitcorrex.git.changes import DIFF_FLAGS, EMPTY_TREE, PathChange, parse_raw_diff
from gitcorrex.git.history import run_history_git
from gitcorrex.git.process import decode_path
from gitcorrex.git.raw_trees import raw_tree_changes
from gitcorrex.git.repository import Repository

DiffPair: TypeAlias = "tuple[str, str | None]"


def diff_commit_pairs(repo: Repository, pairs: Sequence[DiffPair]) -> list[list[PathChange]]:
    """The changes of every (commit, parent) pair, in order; one process when git can."""
    if not pairs:
        return []
    try:
        return _batch(repo, pairs)
    except GitCommandError:
        return [_one(repo, commit, parent) for commit, parent in pairs]


def _batch(repo: Repository, pairs: Sequence[DiffPair]) -> list[list[PathChange]]:
    lines = "".join(f"{commit} {parent}\n" if parent else f"{commit}\n" for commit, parent in pairs)
    args = ["diff-tree", "--stdin", "--always", "--root", *DIFF_FLAGS]
    out = run_history_git(repo, args, stdin=lines.encode("ascii"))
    groups = _split_by_header(out)
    if [sha for sha, _ in groups] != [commit for commit, _ in pairs]:
        raise GitCommandError(["git", *args], 0, "diff-tree output does not match its input")
    return [parse_raw_diff(raw) for _, raw in groups]


def _split_by_header(out: bytes) -> list[tuple[str, bytes]]:
    """`sha\\0` headers, each followed by `:record\\0path\\0` pairs (paths are positional)."""
    fields = out.split(b"\0")
    groups: list[tuple[str, list[bytes]]] = []
    index = 0
    while index < len(fields) - 1:
        field = fields[index]
        if field.startswith(b":") and groups:
            groups[-1][1].extend((field, fields[index + 1]))
            index += 2
        else:
            groups.append((decode_path(field).strip(), []))
            index += 1
    return [(sha, b"".join(f + b"\0" for f in raw)) for sha, raw in groups]


def _one(repo: Repository, commit: str, parent: str | None) -> list[PathChange]:
    """One pair by itself; from the raw objects when git cannot parse one of its trees."""
    args = ["diff-tree", *DIFF_FLAGS, parent or EMPTY_TREE, commit, "--"]
    try:
        return parse_raw_diff(run_history_git(repo, args))
    except GitCommandError:
        return raw_tree_changes(repo, parent, commit)
