"""git's own discovery (`rev-parse`) and libgit2's in-process discovery find the same
repository, so a command may use either without changing what it operates on."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcorrex.git.repository import discover, discover_in_process
from tests.conftest import git, write


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
def test_both_discoveries_agree(layout: str, repo: Path, tmp_path: Path) -> None:
    start = where(layout, repo, tmp_path)
    by_git = discover(start)
    assert by_git == discover_in_process(start)
    assert (by_git.work_tree is None) == (layout == "bare")
