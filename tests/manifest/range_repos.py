"""Repositories for the range gate: a trusted `main` with a profile, a feature branch on top.

The stage `impl` may write `/src/**` only; `main` holds `src/`, `protected/` and the profile.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import git, write

PROFILE = """\
version = 1

[commands]
test = "true"

[expectations]
test = ["test"]

[stages.impl]
writes = ["/src/**"]
"""


def commit(
    root: Path, message: str, files: dict[str, str | bytes] | None = None, *options: str
) -> str:
    """Write `files`, stage everything, commit; the new commit's sha."""
    for rel, content in (files or {}).items():
        write(root, rel, content)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message, *options)
    return git(root, "rev-parse", "HEAD").strip()


@pytest.fixture
def gate_repo(make_repo: Callable[..., Path]) -> Path:
    """`main` (profile, src/app.py, protected/keep.txt) and a branch `feature` checked out."""
    root = make_repo(
        files={".correx.toml": PROFILE, "src/app.py": "print(1)\n", "protected/keep.txt": "keep\n"}
    )
    git(root, "checkout", "-q", "-b", "feature")
    return root


def commit_tree(root: Path, tree: str, parent: str, message: str) -> str:
    """A commit of an arbitrary (possibly crafted) tree on top of `parent`."""
    return git(root, "commit-tree", tree, "-p", parent, "-m", message).strip()


def mktree(root: Path, entries: list[tuple[str, str, str, bytes]]) -> str:
    """`git mktree` from (mode, type, oid, name) entries; names may be anything git accepts."""
    body = b"".join(
        f"{mode} {kind} {oid}\t".encode() + name + b"\n" for mode, kind, oid, name in entries
    )
    return git(root, "mktree", input=body).strip()


def supports_bytes_names() -> bool:
    return os.name == "posix"
