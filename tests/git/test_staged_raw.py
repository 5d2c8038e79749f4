"""`raw_paths(staged_raw_diff(...))` names exactly the paths and gitlinks `staged_changes` does."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from gitcorrex.git.changes import parse_raw_diff, staged_changes
from gitcorrex.git.repository import discover
from gitcorrex.git.staged_raw import raw_paths, staged_raw_diff
from tests.conftest import git, write


def test_paths_and_gitlinks_match_staged_changes(make_repo: Callable[..., Path],
                                                 tmp_path: Path) -> None:
    root = make_repo(files={"a.txt": "a\n", "gone.txt": "g\n", "mode.sh": "m\n"})
    lib = tmp_path / "lib"
    lib.mkdir()
    git(lib, "init", "-q")
    git(lib, "commit", "-q", "--allow-empty", "-m", "one")
    commit = git(lib, "rev-parse", "HEAD").strip()
    write(root, "a.txt", "changed\n")
    write(root, "new\nline.txt")
    with open(os.fsencode(root) + b"/caf\xe9.txt", "wb") as handle:
        handle.write(b"x\n")
    os.symlink("a.txt", root / "link")
    git(root, "rm", "-q", "gone.txt")
    git(root, "add", "-A")
    git(root, "update-index", "--chmod=+x", "mode.sh")
    git(root, "update-index", "--add", "--cacheinfo", f"160000,{commit},vendor/lib")
    repo = discover(root)
    head = git(root, "rev-parse", "HEAD^{tree}").strip()
    raw = staged_raw_diff(repo, base_tree=head)
    changes = staged_changes(repo, base_tree=head)
    assert parse_raw_diff(raw) == changes
    assert raw_paths(raw) == [(c.path, c.is_gitlink) for c in changes]
    assert ("vendor/lib", True) in raw_paths(raw)
    assert len(changes) == 7


def test_empty_diff_has_no_paths(repo: Path) -> None:
    handle = discover(repo)
    head = git(repo, "rev-parse", "HEAD^{tree}").strip()
    assert raw_paths(staged_raw_diff(handle, base_tree=head)) == []
