"""A long note is kept at levels (`git/note_levels.py`): an append rewrites the newest
lines, not the whole note; both engines write the same places; git itself, and every reader
of ours, reads the same bytes in the same order as the one-blob note held."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcorrex.git import note_levels, note_reads, notes
from gitcorrex.git.note_levels import HEAD_BYTES, MIDDLE_BYTES, append_at_levels
from gitcorrex.git.repository import Repository, discover
from gitcorrex.model.session_object import session_object_oid
from tests.conftest import git
from tests.git.test_notes import IDENTITY, REF, head_tree, open_repo
from tests.git.test_notes_engines import both_writers
from tests.session.conftest import cli, locked, plans, project  # noqa: F401  (fixtures)


def append(handle: Repository, tip: str | None, appends: dict[str, bytes]) -> str:
    """One notes commit by the engine `handle` is answered by (libgit2 once opened)."""
    new = notes.write_notes_commit(handle, parent=tip, appends=appends, anchors={},
                                   message="git correx: record 1 event(s)", identity=IDENTITY)
    assert notes.swap_ref(handle, REF, tip, new, "git correx: record 1 event(s)")
    return new


def places(path: Path, subject: str) -> dict[int, str]:
    """depth → blob id of `subject`'s note parts at the ref's tip, as git lists them."""
    found: dict[int, str] = {}
    for line in git(path, "ls-tree", "-r", REF).splitlines():
        meta, name = line.split("\t")
        if name.replace("/", "") == subject:
            found[name.count("/")] = meta.split()[2]
    return found


def line(number: int, width: int) -> bytes:
    return f"{number:06d} ".encode() + b"x" * (width - 8) + b"\n"


def test_an_append_moves_a_level_down_only_when_the_one_above_outgrew_its_bound() -> None:
    parts = {3: b"old\n", 2: b"mid\n", 1: b"new\n"}
    asked: list[int] = []

    def read(depth: int) -> bytes:
        asked.append(depth)
        return parts[depth]

    small = append_at_levels(parts, read, b"more\n")
    assert small == (1, b"new\nmore\n", ())
    assert asked == [1]  # the deeper levels are not even read
    big = b"y" * HEAD_BYTES + b"\n"
    down = append_at_levels(parts, read, big)
    assert down == (2, b"mid\nnew\n" + big, (1,))
    huge = b"z" * MIDDLE_BYTES + b"\n"
    assert append_at_levels(parts, read, huge) == (3, b"old\nmid\nnew\n" + huge, (1, 2))
    flat = append_at_levels({0: b"", 1: b""}, {0: b"flat", 1: b"head\n"}.__getitem__, b"a\n")
    assert flat == (1, b"head\nflat\na\n", (0,))


def test_appends_to_a_long_note_leave_its_older_levels_untouched(repo: Path) -> None:
    """The O(new lines) property: once a note's old lines went deep, appending one more line
    writes a new head only; the deeper blobs keep their ids (and are never read again)."""
    tree = head_tree(repo)
    handle = discover(repo)
    tip = None
    expected = b""
    for number in range(40):  # 40 lines of 64 KiB: past both bounds
        data = line(number, 64 * 1024)
        tip = append(handle, tip, {tree: data})
        expected += data
    deep = places(repo, tree)
    assert set(deep) == {2, 3}, deep
    for number in range(40, 60):
        data = line(number, 200)
        tip = append(handle, tip, {tree: data})
        expected += data
        now = places(repo, tree)
        assert {depth: now[depth] for depth in (2, 3)} == {depth: deep[depth] for depth in (2, 3)}
    assert set(places(repo, tree)) == {1, 2, 3}
    assert notes.read_note(handle, tip, tree) == expected
    assert notes.read_note(open_repo(repo), tip, tree) == expected
    assert shown_by_git(repo, tree) == expected.splitlines()


def shown_by_git(path: Path, subject: str) -> list[bytes]:
    """`git notes show`'s lines; git puts a blank line between the parts of a note it
    concatenates, which readers of ours drop (a blank line is no event)."""
    shown = git(path, "notes", "--ref", REF, "show", subject).encode()
    return [row for row in shown.splitlines() if row]


def test_both_engines_write_the_same_levels(repo: Path) -> None:
    tree = head_tree(repo)
    tip = None
    for number, width in enumerate([8 * 1024, 9 * 1024, 300 * 1024, 800 * 1024, 20 * 1024, 100]):
        tip = both_writers(repo, tip, {tree: line(number, width)}, {})
    assert set(places(repo, tree)) == {1, 2, 3}


def test_every_reader_reads_a_levelled_note_in_order(repo: Path) -> None:
    """git's own reader, both of ours, the batched lookup and a whole-ledger walk."""
    tree = head_tree(repo)
    other = git(repo, "hash-object", "-w", "--stdin", input=b"other\n").strip()
    handle = discover(repo)
    tip = None
    expected = b""
    for number in range(30):
        data = line(number, 50 * 1024)
        tip = append(handle, tip, {tree: data, other: b"o\n"})
        expected += data
    assert tip is not None
    assert len(places(repo, tree)) >= 2
    in_process = open_repo(repo)
    for reader in (handle, in_process):
        assert notes.read_note(reader, tip, tree) == expected
        assert notes.read_notes_for(reader, tip, [tree, other])[tree] == expected
        parts = notes.note_blob_ids(reader, tip, tree)
        assert b"".join(notes.read_note_parts(reader, parts)[oid] for oid in parts) == expected
    assert dict(notes.iter_all_notes(in_process, tip))[tree] == expected
    assert shown_by_git(repo, tree) == expected.splitlines()
    assert note_reads.MAX_FANOUT >= note_levels.DEEPEST  # every reader lists the deepest


@pytest.mark.parametrize("engine", ["git", "libgit2"])
def test_a_foreign_append_and_ours_keep_every_line(repo: Path, engine: str) -> None:
    """`git notes append` folds the levels into one note at its own place; our next append
    starts from that, and nothing is lost either way."""
    tree = head_tree(repo)
    handle = discover(repo) if engine == "git" else open_repo(repo)
    tip = None
    expected = b""
    for number in range(25):
        data = line(number, 64 * 1024)
        tip = append(handle, tip, {tree: data})
        expected += data
    git(repo, "notes", "--ref", REF, "append", "-m", "foreign", tree)
    shown = shown_by_git(repo, tree)
    assert shown == [*expected.splitlines(), b"foreign"]
    tip = git(repo, "rev-parse", REF).strip()
    append(handle, tip, {tree: b"ours\n"})
    assert shown_by_git(repo, tree) == [*shown, b"ours"]
    assert [row for row in notes.read_note(handle, git(repo, "rev-parse", REF).strip(),
                                           tree).splitlines() if row] == [*shown, b"ours"]


def test_a_merge_of_a_levelled_note_with_an_unlevelled_one_loses_no_line(repo: Path) -> None:
    """One clone moved the note's head down, the other appended to the head: the merged
    ledger holds both places, and every reader sees every line of both sides."""
    from gitcorrex.git.notes_merge import merge_notes_trees

    tree = head_tree(repo)
    handle = open_repo(repo)
    base = append(handle, None, {tree: b"base\n"})
    ours = append(handle, base, {tree: line(1, 40 * 1024)})  # the head moves down
    ours = append(handle, ours, {tree: b"ours\n"})
    git(repo, "update-ref", REF, base)  # the other clone's ledger
    theirs = append(handle, base, {tree: b"theirs\n"})
    merged = merge_notes_trees(handle, ours, theirs).tree
    commit = git(repo, "commit-tree", merged, "-p", ours, "-p", theirs, "-m", "merge").strip()
    expected = {b"base", line(1, 40 * 1024).rstrip(b"\n"), b"ours", b"theirs"}
    for reader in (handle, discover(repo)):
        assert set(notes.read_note(reader, commit, tree).splitlines()) - {b""} == expected
    git(repo, "update-ref", REF, commit)
    after = append(discover(repo), commit, {tree: b"next\n"})
    assert set(notes.read_note(handle, after, tree).splitlines()) - {b""} == \
        expected | {b"next"}


def test_a_git_notes_write_on_another_object_leaves_a_long_session_valid(
        locked: tuple[Path, str]) -> None:  # noqa: F811
    """Any `git notes` write loads the notes tree and stores a note kept at several levels
    as one blob, its parts joined by a blank line: the session must stay as it was."""
    from tests.conftest import run_correx
    from tests.session.conftest import append as append_event

    root, session = locked
    for number in range(40):  # past the head level's bound: the session note is levelled
        append_event(root, "session_paused", session,
                     {"cause": "administrative", "reason": f"break {number} " + "r" * 600})
        append_event(root, "session_resumed", session,
                     {"cause": "administrative", "reason": "back"})
    subject = session_object_oid(session)
    assert len(places(root, subject)) > 1
    before = run_correx(root, "session", "status", session, "--json")
    git(root, "notes", "--ref", REF, "add", "-m", "reviewed by hand", "HEAD")
    assert len(places(root, subject)) == 1  # git joined the levels
    after = run_correx(root, "session", "status", session, "--json")
    assert after.code == before.code, after
    state, was = json.loads(after.stdout)["state"], json.loads(before.stdout)["state"]
    assert state["status"] == was["status"] != "invalid" and state["problems"] == [], state
    replayed = json.loads(run_correx(root, "replay", "--json").stdout)
    assert [p for p in replayed["problems"] if p["subject"] == subject] == []
