"""Trees no `git add` would make, built with `git mktree`: non-canonical paths are violations.

Even with no stage selected (no manifest at all), a path with a `..`, `.git` or empty
component can never pass: matching it against patterns would be meaningless.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git
from tests.manifest.range_repos import commit, commit_tree, mktree

Correx = Callable[..., CliResult]


def top_entries(root: Path, rev: str) -> list[tuple[str, str, str, bytes]]:
    """The top-level entries of `rev`'s tree, as `mktree` takes them."""
    entries = []
    for line in git(root, "ls-tree", rev).splitlines():
        meta, name = line.split("\t", 1)
        mode, kind, oid = meta.split(" ")
        entries.append((mode, kind, oid, name.encode()))
    return entries


def crafted_head(root: Path, *entries: tuple[str, str, str, bytes]) -> str:
    """HEAD's tree plus `entries`, committed on HEAD, and `feature` moved there."""
    tree = mktree(root, [*top_entries(root, "HEAD"), *entries])
    sha = commit_tree(root, tree, git(root, "rev-parse", "HEAD").strip(), "crafted")
    git(root, "update-ref", "refs/heads/feature", sha)
    return sha


def blob(root: Path, content: bytes = b"payload\n") -> str:
    return git(root, "hash-object", "-w", "--stdin", input=content).strip()


def directory(root: Path, name: bytes) -> str:
    return mktree(root, [("100644", "blob", blob(root), name)])


def violations_of(correx: Correx, root: Path, *args: str) -> list[dict]:
    result = correx(root, "check", "main..feature", "--json", *args)
    assert result.code == 1, result
    document = json.loads(result.stdout)
    return [v for c in document["commits"] for v in c["violations"]]


@pytest.mark.parametrize(
    ("entry", "shown", "detail"),
    [
        (("100644", "blob", None, b".git"), ".git", "'.git' path component"),
        (("100644", "blob", None, b".GIT"), ".GIT", "'.git' path component"),
        (("040000", "tree", b"hooks", b".git"), ".git/hooks", "'.git' path component"),
        (("040000", "tree", b"file", b".."), "../file", "'..' path component"),
        (("040000", "tree", b"file", b"."), "./file", "'.' path component"),
    ],
)
def test_crafted_component_is_not_canonical(
    gate_repo: Path, correx: Correx, entry: tuple, shown: str, detail: str
) -> None:
    mode, kind, inner, name = entry
    oid = directory(gate_repo, inner) if kind == "tree" else blob(gate_repo)
    crafted_head(gate_repo, (mode, kind, oid, name))
    found = violations_of(correx, gate_repo)
    assert [(v["path"], v["rule"], v["detail"]) for v in found] == [
        (shown, "PATH_NOT_CANONICAL", detail)
    ]


def test_dotdot_directory_is_caught_even_inside_an_allowed_directory(
    gate_repo: Path, correx: Correx
) -> None:
    """`src/../protected/x` would match `/src/**` if matched as written."""
    nested = mktree(gate_repo, [("040000", "tree", directory(gate_repo, b"x"), b"protected")])
    dotdot = ("040000", "tree", nested, b"..")
    src = mktree(gate_repo, [*top_entries(gate_repo, "HEAD:src"), dotdot])
    top = [(m, k, src if n == b"src" else o, n) for m, k, o, n in top_entries(gate_repo, "HEAD")]
    head = git(gate_repo, "rev-parse", "HEAD").strip()
    git(
        gate_repo,
        "update-ref",
        "refs/heads/feature",
        commit_tree(gate_repo, mktree(gate_repo, top), head, "crafted"),
    )
    found = violations_of(correx, gate_repo, "--stage", "impl")
    assert [(v["path"], v["rule"]) for v in found] == [("src/../protected/x", "PATH_NOT_CANONICAL")]


def test_empty_file_name_git_cannot_parse_is_a_violation(gate_repo: Path, correx: Correx) -> None:
    crafted_head(gate_repo, ("100644", "blob", blob(gate_repo), b""))
    found = violations_of(correx, gate_repo)
    assert [(v["path"], v["change"], v["rule"]) for v in found] == [
        ("", "added", "PATH_NOT_CANONICAL")
    ]


def test_empty_directory_name_git_cannot_parse_is_a_violation(
    gate_repo: Path, correx: Correx
) -> None:
    crafted_head(gate_repo, ("040000", "tree", directory(gate_repo, b"file"), b""))
    result = correx(gate_repo, "check", "main..feature", "--stage", "impl")
    assert result.code == 1, result
    assert "  PATH_NOT_CANONICAL /file: added: not a canonical path" in result.stdout


def test_crafted_commit_among_ordinary_ones(gate_repo: Path, correx: Correx) -> None:
    """The batched diff falls back to one pair at a time; the other commits are still judged."""
    before = commit(gate_repo, "before", {"protected/keep.txt": "one\n"})
    empty_name = ("100644", "blob", blob(gate_repo), b"")
    base = top_entries(gate_repo, before)
    crafted = commit_tree(gate_repo, mktree(gate_repo, [*base, empty_name]), before, "crafted")
    protected = mktree(gate_repo, [("100644", "blob", blob(gate_repo, b"two\n"), b"keep.txt")])
    edited = [(m, k, protected if n == b"protected" else o, n) for m, k, o, n in base]
    after = commit_tree(gate_repo, mktree(gate_repo, [*edited, empty_name]), crafted, "after")
    git(gate_repo, "update-ref", "refs/heads/feature", after)
    result = correx(gate_repo, "check", "main..feature", "--stage", "impl", "--json")
    assert result.code == 1, result
    document = json.loads(result.stdout)
    assert [
        (c["subject"], [(v["path"], v["change"]) for v in c["violations"]])
        for c in document["commits"]
    ] == [
        ("before", [("protected/keep.txt", "modified")]),
        ("crafted", [("", "added")]),
        ("after", [("protected/keep.txt", "modified")]),
    ]
    assert [v["path"] for v in document["net"]["violations"]] == ["", "protected/keep.txt"]
