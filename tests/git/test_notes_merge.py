"""The ledger merge: line union per note, anchors from both sides, independent of sides."""

from __future__ import annotations

from pathlib import Path

from gitcorrex.git.notes_merge import (
    is_ancestor,
    merge_notes_trees,
    tips_missing_from,
    unite_lines,
)
from tests.conftest import git, in_process, write
from tests.ledger_facts import verify_tree

REF = "refs/notes/correx"


def diverge(repo: Path) -> tuple[str, str, list[str]]:
    """Two ledger tips from one base: (ours, theirs, the three state trees)."""
    trees = []
    for name in ("base", "ours", "theirs"):
        write(repo, f"{name}.txt", name)
        git(repo, "add", "-A")
        trees.append(git(repo, "write-tree").strip())
    verify_tree(repo, trees[0], seconds=1)
    base = git(repo, "rev-parse", REF).strip()
    verify_tree(repo, trees[1], seconds=2)
    verify_tree(repo, trees[0], "fail", seconds=3)  # the same note changed on both sides
    ours = git(repo, "rev-parse", REF).strip()
    git(repo, "update-ref", REF, base)
    verify_tree(repo, trees[2], seconds=4)
    verify_tree(repo, trees[0], "unavailable", seconds=5)
    return ours, git(repo, "rev-parse", REF).strip(), trees


def test_merge_is_the_same_tree_whichever_side_is_ours(repo: Path) -> None:
    ours, theirs, _ = diverge(repo)
    handle = in_process(repo)
    assert not is_ancestor(handle, ours, theirs) and not is_ancestor(handle, theirs, ours)
    assert merge_notes_trees(handle, ours, theirs).tree == \
        merge_notes_trees(handle, theirs, ours).tree


def test_merge_unites_lines_and_keeps_both_sides_anchors(repo: Path) -> None:
    ours, theirs, trees = diverge(repo)
    merged = merge_notes_trees(in_process(repo), ours, theirs)
    assert [union.subject for union in merged.unions] == [trees[0]]
    note = git(repo, "cat-file", "-p", f"{merged.tree}:{trees[0][:2]}/{trees[0][2:]}")
    results = sorted(line.split('"result":"')[1].split('"')[0] for line in note.splitlines())
    assert results == ["fail", "pass", "unavailable"]
    anchors = git(repo, "ls-tree", "-r", "-d", "--name-only", merged.tree, "anchors").split()
    for tree in trees:
        assert f"anchors/{tree[:2]}/{tree[2:]}" in anchors


def test_unite_lines_drops_duplicates_and_blank_lines() -> None:
    assert unite_lines(b"b\n\na\n", b"a\nc\n") == b"a\nb\nc\n"
    assert unite_lines(b"x", b"x\n") == b"x\n"


def test_tips_missing_from_a_base_are_those_it_does_not_contain(repo: Path) -> None:
    ours, theirs, _ = diverge(repo)
    handle = in_process(repo)
    base = git(repo, "rev-parse", f"{ours}~2").strip()
    tips = [theirs, base, ours, theirs]
    assert tips_missing_from(handle, tips, ours) == [theirs]
    assert tips_missing_from(handle, tips, base) == sorted({ours, theirs})
    assert tips_missing_from(handle, tips, None) == sorted({base, ours, theirs})


def test_merge_counts_the_distinct_lines_the_other_side_brings(repo: Path) -> None:
    ours, theirs, _ = diverge(repo)
    handle = in_process(repo)
    assert len(merge_notes_trees(handle, ours, theirs).gained) == 2
    assert merge_notes_trees(handle, ours, ours).gained == frozenset()
