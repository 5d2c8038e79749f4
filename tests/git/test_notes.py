"""The notes tree, read and written by our own code, checked against real git."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository, notes
from gitcorrex.git.identity import Identity, LedgerIdentity
from tests.conftest import git, in_process

REF = "refs/notes/correx"
ADA = Identity("Ada Tester", "ada@example.test")
IDENTITY = LedgerIdentity(author=ADA, committer=ADA)


def open_repo(path: Path) -> Repository:
    return in_process(path)


def head_tree(path: Path) -> str:
    return git(path, "rev-parse", "HEAD^{tree}").strip()


def commit(
    repo: Repository,
    appends: dict[str, bytes],
    anchors: dict[str, str] | None = None,
    expected: str | None = None,
) -> str | None:
    new = notes.write_notes_commit(repo, parent=expected, appends=appends,
                                   anchors=anchors or {}, message="test", identity=IDENTITY)
    return new if notes.swap_ref(repo, REF, expected, new, "test") else None


def test_commit_notes_writes_fanout_notes_and_anchors(repo: Path) -> None:
    tree = head_tree(repo)
    blob = git(repo, "hash-object", "-w", "--stdin", input=b"output\n").strip()
    tip = commit(open_repo(repo), {tree: b"one\n", blob: b"two\n"}, {tree: "tree", blob: "blob"})
    listing = git(repo, "ls-tree", "-r", "-t", REF)
    assert (
        f"100644 blob {git(repo, 'rev-parse', f'{REF}:{tree[:2]}/{tree[2:]}').strip()}\t"
        f"{tree[:2]}/{tree[2:]}" in listing
    )
    assert f"040000 tree {tree}\tanchors/{tree[:2]}/{tree[2:]}" in listing
    assert f"100644 blob {blob}\tanchors/{blob[:2]}/{blob[2:]}" in listing
    assert git(repo, "rev-parse", REF).strip() == tip


def test_real_git_reads_our_notes(repo: Path) -> None:
    tree = head_tree(repo)
    commit(open_repo(repo), {tree: b'{"a":1}\n'}, {tree: "tree"})
    assert git(repo, "notes", "--ref", "correx", "show", tree) == '{"a":1}\n'


def test_read_note_finds_a_note_git_wrote_at_the_root(repo: Path) -> None:
    tree = head_tree(repo)
    git(repo, "notes", "--ref", "correx", "add", "-m", "by git", tree)
    assert tree in git(repo, "ls-tree", "--name-only", REF)
    handle = open_repo(repo)
    tip = notes.ledger_tip(handle, REF)
    assert notes.read_note(handle, tip, tree) == b"by git\n"
    assert list(notes.iter_all_notes(handle, tip)) == [(tree, b"by git\n")]


def test_read_note_finds_a_two_level_fanout(repo: Path) -> None:
    tree = head_tree(repo)
    blob = git(repo, "hash-object", "-w", "--stdin", input=b"deep\n").strip()
    inner = git(repo, "mktree", input=f"100644 blob {blob}\t{tree[4:]}\n".encode()).strip()
    middle = git(repo, "mktree", input=f"040000 tree {inner}\t{tree[2:4]}\n".encode()).strip()
    root = git(repo, "mktree", input=f"040000 tree {middle}\t{tree[:2]}\n".encode()).strip()
    git(repo, "update-ref", REF, git(repo, "commit-tree", root, "-m", "deep").strip())
    handle = open_repo(repo)
    tip = notes.ledger_tip(handle, REF)
    assert notes.read_note(handle, tip, tree) == b"deep\n"
    assert list(notes.iter_all_notes(handle, tip)) == [(tree, b"deep\n")]
    assert git(repo, "notes", "--ref", "correx", "show", tree) == "deep\n"


def test_read_all_notes_does_not_descend_into_anchors(make_repo: Callable[..., Path]) -> None:
    fake = "ab" + "c" * 38
    path = make_repo(files={f"ab/{fake[2:]}": "not a note\n", fake: "nor this\n"})
    tree = head_tree(path)
    handle = open_repo(path)
    tip = commit(handle, {tree: b"real\n"}, {tree: "tree"})
    assert list(notes.iter_all_notes(handle, tip)) == [(tree, b"real\n")]


def test_appending_moves_a_root_note_to_fanout_keeping_its_content(repo: Path) -> None:
    tree = head_tree(repo)
    git(repo, "notes", "--ref", "correx", "add", "-m", "by git", tree)
    handle = open_repo(repo)
    commit(handle, {tree: b"by us\n"}, {tree: "tree"}, expected=notes.ledger_tip(handle, REF))
    names = git(repo, "ls-tree", "-r", "--name-only", REF).split()
    assert f"{tree[:2]}/{tree[2:]}" in names and tree not in names
    assert git(repo, "notes", "--ref", "correx", "show", tree) == "by git\nby us\n"


def test_commit_notes_loses_the_race_on_a_stale_tip(repo: Path) -> None:
    tree = head_tree(repo)
    handle = open_repo(repo)
    first = commit(handle, {tree: b"1\n"}, {tree: "tree"})
    second = commit(handle, {tree: b"2\n"}, expected=first)
    assert second is not None
    assert commit(handle, {tree: b"stale\n"}, expected=first) is None
    assert notes.ledger_tip(handle, REF) == second
    assert git(repo, "notes", "--ref", "correx", "show", tree) == "1\n2\n"


def test_commit_notes_loses_when_another_writer_created_the_ref(repo: Path) -> None:
    tree = head_tree(repo)
    git(repo, "notes", "--ref", "correx", "add", "-m", "first", tree)
    assert commit(open_repo(repo), {tree: b"mine\n"}) is None
    assert git(repo, "notes", "--ref", "correx", "show", tree) == "first\n"


def test_commit_notes_reports_a_held_lock_as_a_lost_race(repo: Path) -> None:
    tree = head_tree(repo)
    handle = open_repo(repo)
    first = commit(handle, {tree: b"1\n"}, {tree: "tree"})
    lock = handle.common_dir / f"{REF}.lock"
    lock.write_text("")
    assert commit(handle, {tree: b"2\n"}, expected=first) is None
    assert lock.exists(), "a lock file is never removed automatically"


def test_ledger_ref_expands_like_git_notes(repo: Path) -> None:
    handle = open_repo(repo)
    assert notes.ledger_ref(handle) == REF
    for value, expected in [
        ("foo", "refs/notes/foo"),
        ("notes/bar", "refs/notes/bar"),
        ("refs/notes/baz", "refs/notes/baz"),
    ]:
        git(repo, "config", "correx.ref", value)
        assert notes.ledger_ref(open_repo(repo)) == expected


def test_ledger_ref_refuses_an_invalid_name(repo: Path) -> None:
    git(repo, "config", "correx.ref", "bad..name")
    with pytest.raises(ConfigError, match=r"correx\.ref"):
        notes.ledger_ref(open_repo(repo))


def test_merge_strategy_is_set_once_and_a_user_choice_is_kept(repo: Path) -> None:
    notes.ensure_merge_strategy(open_repo(repo), REF)
    assert git(repo, "config", "notes.correx.mergeStrategy").strip() == "cat_sort_uniq"
    git(repo, "config", "notes.other.mergeStrategy", "union")
    notes.ensure_merge_strategy(open_repo(repo), "refs/notes/other")
    assert git(repo, "config", "notes.other.mergeStrategy").strip() == "union"


def test_object_type_and_write_blob(repo: Path) -> None:
    handle = open_repo(repo)
    blob = notes.write_blob(handle, b"payload\n")
    assert git(repo, "cat-file", "-p", blob) == "payload\n"
    assert notes.object_types(handle, [blob, head_tree(repo), "0" * 40]) == ["blob", "tree",
                                                                              None]


def test_missing_ledger_reads_as_nothing(repo: Path) -> None:
    handle = open_repo(repo)
    assert notes.ledger_tip(handle, REF) is None
    assert list(notes.iter_all_notes(handle, None)) == []
    assert notes.read_note(handle, None, head_tree(repo)) is None


def test_iterating_all_notes_equals_reading_them(repo: Path) -> None:
    tree = head_tree(repo)
    handle = open_repo(repo)
    blob = notes.write_blob(handle, b"plan\n")
    tip = commit(handle, {tree: b"a\n", blob: b"b\n"}, {tree: "tree", blob: "blob"})
    assert sorted(notes.iter_all_notes(handle, tip)) == sorted([(tree, b"a\n"), (blob, b"b\n")])
    assert notes.read_notes_for(handle, tip, [tree, blob]) == {tree: b"a\n", blob: b"b\n"}


def test_read_all_notes_enters_only_two_character_fanouts(make_repo: Callable[..., Path]) -> None:
    """`ab/cdef/<34 hex>` adds up to an object id but is no note (git and libgit2 read a
    note only under fanout directories of two characters): the whole-ledger read skips it."""
    path = make_repo()
    tree = head_tree(path)
    handle = open_repo(path)
    tip = commit(handle, {tree: b"real\n"}, {})
    odd = git(path, "hash-object", "-w", "--stdin", input=b"odd\n").strip()
    inner = git(path, "mktree", input=f"100644 blob {odd}\t{'e' * 34}\n".encode()).strip()
    middle = git(path, "mktree", input=f"040000 tree {inner}\tcdef\n".encode()).strip()
    top = git(path, "ls-tree", tip) + f"040000 tree {middle}\tab\n"
    crafted = git(path, "commit-tree", "-m", "odd", git(path, "mktree", input=top.encode())
                  .strip()).strip()
    assert list(notes.iter_all_notes(handle, crafted)) == [(tree, b"real\n")]

