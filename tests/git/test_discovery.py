"""One discovery, git's own (`rev-parse`), for every layout: the repository a command
operates on is the one git would, including a `--separate-git-dir` work tree nested inside
another repository (libgit2's discovery took the parent of such a git dir for its work tree:
a command then read, and `sync` pushed, the other repository's ledger)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcorrex.git import discover
from tests.conftest import git, run_correx, write


def where(layout: str, repo: Path, tmp_path: Path) -> Path:
    """Build the layout named by the test and return the directory to start from."""
    if layout == "subdirectory":
        write(repo, "a/b/c.txt")
        return repo / "a" / "b"
    if layout == "linked worktree":
        git(repo, "worktree", "add", "-q", "-b", "wt", str(tmp_path / "wt"))
        return tmp_path / "wt"
    if layout == "bare":
        git(tmp_path, "clone", "-q", "--bare", str(repo), "bare.git")
        return tmp_path / "bare.git"
    return repo


@pytest.mark.parametrize("layout", ["top level", "subdirectory", "linked worktree", "bare"])
def test_discovery_is_gits_answer(layout: str, repo: Path, tmp_path: Path) -> None:
    start = where(layout, repo, tmp_path)
    found = discover(start)
    expected = git(start, "rev-parse", "--path-format=absolute", "--absolute-git-dir",
                   "--git-common-dir").split()
    assert [str(found.git_dir), str(found.common_dir)] == expected
    assert (found.work_tree is None) == (layout == "bare")
    if found.work_tree is not None:
        assert str(found.work_tree) == git(start, "rev-parse", "--show-toplevel").strip()


def test_a_separate_git_dir_inside_another_repository_is_its_own(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    git(tmp_path, "init", "-q", str(outer))
    write(outer, "outer.txt", "outer\n")
    git(outer, "add", "-A")
    git(outer, "commit", "-q", "-m", "outer")
    inner = outer / "inner"
    git(tmp_path, "init", "-q", f"--separate-git-dir={tmp_path / 'store'}", str(inner))
    write(inner, "inner.txt", "inner\n")
    git(inner, "add", "-A")
    git(inner, "commit", "-q", "-m", "inner")
    found = discover(inner)
    assert (found.work_tree, found.git_dir) == (inner, (tmp_path / "store").resolve())
    found.libgit2()  # opened on what git named, never on a guessed work tree
    for command in (("log",), ("report", "HEAD"), ("show", "HEAD")):
        result = run_correx(inner, *command)
        assert result.code == 0, (command, result)
        assert "outer" not in result.stdout, (command, result)
    assert git(outer, "for-each-ref", "refs/notes/") == ""
