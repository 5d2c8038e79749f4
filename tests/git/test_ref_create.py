"""A ref's first write: exactly one of many concurrent creators wins, the others are told."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.conftest import git

REF = "refs/notes/correx"


def commits(repo: Path, count: int) -> list[str]:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    return [git(repo, "commit-tree", tree, "-m", f"c{i}").strip() for i in range(count)]


def test_only_one_concurrent_creator_wins(repo: Path) -> None:
    from gitcorrex.git.ref_create import create_ref_if_absent

    candidates = commits(repo, 16)
    common = repo / ".git"
    with ThreadPoolExecutor(max_workers=16) as pool:
        won = list(pool.map(lambda c: create_ref_if_absent(common, REF, c, "create"), candidates))
    assert won.count(True) == 1
    assert git(repo, "rev-parse", REF).strip() == candidates[won.index(True)]


def test_an_existing_ref_is_never_overwritten(repo: Path) -> None:
    from gitcorrex.git.ref_create import create_ref_if_absent

    first, second = commits(repo, 2)
    assert create_ref_if_absent(repo / ".git", REF, first, "create")
    assert not create_ref_if_absent(repo / ".git", REF, second, "create")
    assert git(repo, "rev-parse", REF).strip() == first
