"""The two storage engines of `git/notes.py` agree: the notes commit made with git's
plumbing equals the one libgit2 makes (CAS included), every read answers the same, and the
engine is chosen by whether this process opened libgit2 on the repository."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from gitcorrex.errors import UnavailableError
from gitcorrex.git import note_reads, notes, notes_libgit2, notes_plumbing
from gitcorrex.git.repository import Repository, discover
from tests.conftest import git
from tests.git.test_notes import IDENTITY, REF, head_tree, open_repo
from tests.review.test_signatures import configure_signing, ssh_key

Appends = dict[str, bytes]
Anchors = dict[str, str]


def commit_by(engine: ModuleType, repo: Repository, tip: str | None, appends: Appends,
              anchors: Anchors, message: str = "git correx: record 1 event(s)") -> str | None:
    """`engine`'s notes commit on `tip`, moved onto the ref by its compare-and-swap; None
    when the ref no longer points at `tip`."""
    new: str = engine.write_notes_commit(repo, parent=tip, appends=appends, anchors=anchors,
                                         message=message, identity=IDENTITY)
    return new if engine.swap_ref(repo, REF, tip, new, message) else None


def by_libgit2(repo: Repository, tip: str | None, appends: Appends, anchors: Anchors) -> str:
    new = commit_by(notes_libgit2, repo, tip, appends, anchors)
    assert new is not None
    return new


def by_git(repo: Repository, tip: str | None, appends: Appends, anchors: Anchors) -> str:
    new = commit_by(notes_plumbing, repo, tip, appends, anchors)
    assert new is not None
    return new


def shape(path: Path, commit: str) -> str:
    """The commit object without its timestamps (both writers stamp the current time) and
    without the signature's bytes (which sign those timestamps)."""
    raw = git(path, "cat-file", "commit", commit)
    raw = re.sub(r"gpgsig -----BEGIN SSH SIGNATURE-----\n( .*\n)+", "gpgsig SIGNED\n", raw)
    return re.sub(r"> \d+ [+-]\d{4}\n", "> TIME\n", raw)


def both_writers(path: Path, tip: str | None, appends: Appends, anchors: Anchors) -> str:
    """Append with libgit2, put the ref back, append the same with git; the two commits
    must be equal but for their timestamps. Leaves the ref at git's commit."""
    repo = open_repo(path)
    ours = by_libgit2(repo, tip, appends, anchors)
    if tip is None:
        git(path, "update-ref", "-d", REF)
    else:
        git(path, "update-ref", REF, tip)
    theirs = by_git(repo, tip, appends, anchors)
    assert shape(path, theirs) == shape(path, ours)
    assert git(path, "rev-parse", f"{theirs}^{{tree}}") == git(path, "rev-parse",
                                                               f"{ours}^{{tree}}")
    return theirs


def blob(path: Path, data: bytes) -> str:
    return git(path, "hash-object", "-w", "--stdin", input=data).strip()


def test_git_writer_makes_the_libgit2_writers_commits(repo: Path) -> None:
    tree = head_tree(repo)
    output = blob(repo, b"output\n")
    tip = both_writers(repo, None, {tree: b"one\n"}, {tree: "tree", output: "blob"})
    other = blob(repo, b"other\n")
    tip = both_writers(repo, tip, {tree: b"two\n", other: b"three\n"},
                       {tree: "tree", other: "blob"})
    assert git(repo, "notes", "--ref", REF, "show", tree) == "one\ntwo\n"
    assert git(repo, "rev-parse", f"{tip}^") .strip() != tip
    assert f"040000 tree {tree}\tanchors/{tree[:2]}/{tree[2:]}" in git(
        repo, "ls-tree", "-r", "-t", REF)


def test_git_writer_hands_a_note_at_another_fanout_to_libgit2(repo: Path) -> None:
    """`git notes add` writes a flat `<40hex>` note: the append concatenates it all the same,
    and the line without a final newline still starts a new line."""
    tree = head_tree(repo)
    git(repo, "notes", "--ref", REF, "add", "-m", "flat", tree)
    tip = git(repo, "rev-parse", REF).strip()
    both_writers(repo, tip, {tree: b"appended\n"}, {})
    assert git(repo, "notes", "--ref", REF, "show", tree) == "flat\nappended\n"


def test_git_writer_loses_a_race_without_moving_the_ref(repo: Path) -> None:
    """Compare-and-swap: a tip that moved since it was read means nothing is written."""
    tree = head_tree(repo)
    handle = open_repo(repo)
    first = by_git(handle, None, {tree: b"one\n"}, {})
    second = by_git(handle, first, {tree: b"two\n"}, {})
    stale = commit_by(notes_plumbing, handle, first, {tree: b"lost\n"}, {}, "m")
    assert stale is None
    assert git(repo, "rev-parse", REF).strip() == second
    assert commit_by(notes_plumbing, handle, None, {tree: b"lost\n"}, {}, "m") is None
    assert "lost" not in git(repo, "notes", "--ref", REF, "show", tree)


def test_git_writer_waits_for_no_one_when_the_ref_is_locked(repo: Path) -> None:
    tree = head_tree(repo)
    handle = open_repo(repo)
    first = by_git(handle, None, {tree: b"one\n"}, {})
    lock = Path(handle.common_dir, f"{REF}.lock")
    lock.write_text("")
    try:
        assert commit_by(notes_plumbing, handle, first, {tree: b"x\n"}, {}, "m") is None
    finally:
        lock.unlink()
    assert git(repo, "rev-parse", REF).strip() == first


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
def test_git_writer_signs_as_the_libgit2_writer_does(repo: Path, tmp_path: Path) -> None:
    configure_signing(repo, ssh_key(tmp_path, "key"), tmp_path)
    tree = head_tree(repo)
    tip = both_writers(repo, None, {tree: b"one\n"}, {tree: "tree"})
    both_writers(repo, tip, {tree: b"two\n"}, {})
    assert "gpgsig SIGNED" in shape(repo, git(repo, "rev-parse", REF).strip())
    git(repo, "verify-commit", REF)


def test_both_engines_read_the_same_ledger(repo: Path) -> None:
    """A ledger with a note split over two fanouts (git's own `notes add` at the flat
    place, ours at `ab/`), a blob subject and an absent one: every read agrees."""
    tree = head_tree(repo)
    output = blob(repo, b"output\n")
    git(repo, "notes", f"--ref={REF}", "add", "-m", "flat", tree)
    flat = git(repo, "rev-parse", REF).strip()
    tip = both_writers(repo, flat, {tree: b"ours\n", output: b"two\n"}, {output: "blob"})
    in_process, by_git = open_repo(repo), discover(repo)
    assert not by_git.has_libgit2() and in_process.has_libgit2()
    absent = "0" * 40
    for reader, writer, handle in ((notes_libgit2, notes_libgit2, in_process),
                                   (note_reads, notes_plumbing, by_git)):
        assert reader.ledger_tip(handle, REF) == tip
        assert writer.object_types(handle, [tree, output, tip, absent]) == [
            "tree", "blob", "commit", None]
    assert notes.read_note(in_process, tip, tree) == notes.read_note(by_git, tip, tree)
    assert notes.read_note(by_git, tip, tree) == b"flat\nours\n"
    assert notes.note_blob_ids(in_process, tip, tree) == notes.note_blob_ids(by_git, tip, tree)
    for handle in (in_process, by_git):
        assert notes.read_notes_for(handle, tip, [tree, output, absent]) == {
            tree: b"flat\nours\n", output: b"two\n"}
        assert notes.note_blobs_at(handle, REF, [tree, absent]) == {
            tree: notes.note_blob_ids(by_git, tip, tree)}


def test_a_ledger_not_yet_written_reads_as_empty_with_either_engine(repo: Path) -> None:
    for handle in (open_repo(repo), discover(repo)):
        assert notes.ledger_tip(handle, REF) is None
        assert notes.note_blobs_at(handle, REF, [head_tree(repo)]) == {}


def test_a_ref_that_is_no_commit_is_an_error_never_an_empty_ledger(repo: Path) -> None:
    git(repo, "update-ref", REF, head_tree(repo))  # a tree where a commit belongs
    with pytest.raises(UnavailableError, match="is not a commit"):
        notes.ledger_tip(discover(repo), REF)
    with pytest.raises(UnavailableError, match="is not a commit"):
        notes.note_blobs_at(discover(repo), REF, [head_tree(repo)])


def test_the_engine_is_libgit2_only_once_this_process_opened_it(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before libgit2 is opened, git answers (and libgit2 stays closed); once it is open,
    the notes operations start no git process at all."""
    handle = discover(repo)
    assert notes.write_blob(handle, b"x\n") == blob(repo, b"x\n")
    assert not handle.has_libgit2()  # the write went through git: nothing opened libgit2
    handle.libgit2()
    tip = both_writers(repo, None, {head_tree(repo): b"a\n"}, {})
    started: list[object] = []
    monkeypatch.setattr(notes_plumbing, "run_git", lambda *a, **k: started.append(a))
    monkeypatch.setattr(note_reads, "run_git", lambda *a, **k: started.append(a))
    assert notes.ledger_tip(handle, REF) == tip
    assert notes.read_note(handle, tip, head_tree(repo)) == b"a\n"
    assert notes.write_blob(handle, b"y\n") and notes.object_types(handle, [tip]) == ["commit"]
    assert started == []
