"""`correx.anchorStates`: false leaves state trees unanchored (blobs still are); a value that
is not a boolean is a configuration error and records nothing. `correx.anchorMaxBytes`
weighs a tree alike with either engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcorrex.errors import ConfigError
from gitcorrex.git.anchor_policy import TreeWeight, heavy_trees
from gitcorrex.git.repository import discover
from gitcorrex.model.events import session_object_oid
from tests.conftest import git, write
from tests.git.test_notes import open_repo as in_process
from tests.ledger_facts import verify_tree

REF = "refs/notes/correx"


def anchors(repo: Path) -> list[str]:
    listed = git(repo, "ls-tree", "-r", "--name-only", REF, "anchors")
    return [path.replace("/", "")[len("anchors"):] for path in listed.split()]


def test_states_are_anchored_by_default(repo: Path) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(repo, tree)
    assert tree in git(repo, "ls-tree", "-r", "-d", "--name-only", REF, "anchors").replace("/", "")


def test_false_anchors_session_blobs_but_not_trees(repo: Path) -> None:
    git(repo, "config", "correx.anchorStates", "false")
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(repo, tree, session="run-1")
    listed = git(repo, "ls-tree", "-r", "-d", "--name-only", REF, "anchors").replace("/", "")
    assert tree not in listed
    assert session_object_oid("run-1") in anchors(repo)


def test_a_value_that_is_not_a_boolean_is_a_config_error(repo: Path) -> None:
    git(repo, "config", "correx.anchorStates", "sometimes")
    with pytest.raises(ConfigError, match=r"correx\.anchorStates"):
        verify_tree(repo, git(repo, "rev-parse", "HEAD^{tree}").strip())
    assert git(repo, "for-each-ref", REF) == ""


def weigh_both_ways(path: Path, tip: str | None, trees: list[str]) -> tuple[object, object]:
    """`heavy_trees` with git's plumbing (a fresh handle, libgit2 never opened) and with
    libgit2 in-process (`anchor_weights_libgit2.py`)."""
    plumbing = discover(path)
    assert not plumbing.has_libgit2()
    by_git = heavy_trees(plumbing, tip, trees)
    assert not plumbing.has_libgit2()
    return by_git, heavy_trees(in_process(path), tip, trees)


def test_both_engines_weigh_a_tree_alike(repo: Path) -> None:
    """Added, modified, mode-changed, symlinked and nested files count; unchanged ones and
    gitlinks do not: the same weight from `git diff-tree` and from libgit2's walk."""
    git(repo, "config", "correx.anchorMaxBytes", "10")
    write(repo, "deep/same.txt", "hello\n")
    write(repo, "deep/kept.txt", "kept\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "deep")
    write(repo, "README.md", "hello, changed\n")
    write(repo, "deep/er/new.txt", "x" * 300)
    (repo / "link").symlink_to("README.md")
    git(repo, "add", "-A")
    git(repo, "update-index", "--chmod=+x", "deep/same.txt")
    git(repo, "update-index", "--add", "--cacheinfo",
        f"160000,{git(repo, 'rev-parse', 'HEAD').strip()},sub")
    tree = git(repo, "write-tree").strip()
    by_git, by_libgit2 = weigh_both_ways(repo, None, [tree])
    assert by_git == by_libgit2 == {tree: TreeWeight(4, 15 + 300 + 6 + 9)}


def test_both_engines_skip_head_and_anchored_trees(repo: Path) -> None:
    git(repo, "config", "correx.anchorMaxBytes", "1")
    head = git(repo, "rev-parse", "HEAD^{tree}").strip()
    write(repo, "big.txt", "y" * 50)
    git(repo, "add", "-A")
    anchored = git(repo, "write-tree").strip()
    verify_tree(repo, anchored)  # over the cap: recorded, left unanchored
    assert weigh_both_ways(repo, git(repo, "rev-parse", REF).strip(), [head, anchored]) == (
        {anchored: TreeWeight(1, 50)}, {anchored: TreeWeight(1, 50)})
    git(repo, "config", "correx.anchorMaxBytes", "0")
    verify_tree(repo, anchored)  # no cap: now anchored
    git(repo, "config", "correx.anchorMaxBytes", "1")
    tip = git(repo, "rev-parse", REF).strip()
    assert weigh_both_ways(repo, tip, [head, anchored]) == ({}, {})
