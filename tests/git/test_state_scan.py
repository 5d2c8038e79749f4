"""A warm kept index is refreshed by `git status` first, then `git add` of just what changed.

Each test warms the kept index (two keys: the second adds git's untracked cache), changes
the work tree, and compares the key with the definition (`reference_key`). `GIT_TRACE`
shows which git commands ran, so the tests also prove which path was taken.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from gitcorrex.git.repository import discover
from gitcorrex.git.state import StateProbe, compute_state
from gitcorrex.git.state_scan import MAX_PATHSPECS, parse_status
from tests.conftest import git, write
from tests.git.state_helpers import blob, reference_key, tree_entry


def key_of(repo: Path) -> str:
    return compute_state(discover(repo)).state_key


@pytest.fixture
def warm(repo: Path) -> Path:
    """`repo` keyed twice, its files and directories an hour old (nothing racy)."""
    write(repo, "src/a.txt", "a\n")
    write(repo, "src/b.txt", "b\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "src")
    old = time.time() - 3600
    for path in (repo, repo / "src", repo / "README.md", repo / "src/a.txt", repo / "src/b.txt"):
        os.utime(path, (old, old))
    key_of(repo)
    key_of(repo)
    return repo


def traced_key(repo: Path, monkeypatch: pytest.MonkeyPatch, trace: Path) -> tuple[str, str]:
    """The key, and the git commands (`git add …` lines) it ran."""
    trace.unlink(missing_ok=True)
    monkeypatch.setenv("GIT_TRACE", str(trace))
    key = key_of(repo)
    monkeypatch.delenv("GIT_TRACE")
    commands = [line.split("built-in: ", 1)[1] for line in trace.read_text().splitlines()
                if "built-in: git " in line]
    return key, "\n".join(commands)


def test_nothing_changed_runs_status_and_no_add(
        warm: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    key, ran = traced_key(warm, monkeypatch, tmp_path / "trace")
    assert "git status --porcelain=v2" in ran
    assert "git add" not in ran and "git write-tree" not in ran
    assert key == reference_key(warm)


def test_a_few_changes_are_added_by_pathspec(
        warm: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    write(warm, "src/a.txt", "changed\n")
    os.unlink(warm / "src/b.txt")
    write(warm, "new/dir/c.txt", "new\n")
    key, ran = traced_key(warm, monkeypatch, tmp_path / "trace")
    assert "git add -A --pathspec-from-file=- --pathspec-file-nul" in ran
    assert blob(warm, key, "src/a.txt") == b"changed\n"
    assert not tree_entry(warm, key, "src/b.txt")
    assert tree_entry(warm, key, "new/dir/c.txt")
    assert key == reference_key(warm)


def test_many_changes_fall_back_to_add_all(
        warm: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for i in range(MAX_PATHSPECS + 1):
        write(warm, f"top{i:03d}.txt", f"{i}\n")
    key, ran = traced_key(warm, monkeypatch, tmp_path / "trace")
    assert "git add -A" in ran.splitlines()
    assert "--pathspec-from-file" not in ran
    assert key == reference_key(warm)


@pytest.mark.parametrize("name", ["*.txt", ":(glob)x", "[ab].txt", "x:(icase)"])
def test_names_that_look_like_pathspec_magic_are_added_literally(
        repo: Path, name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`:(glob)x` read as magic would match the tracked `x` and leave the new file out."""
    write(repo, "x", "tracked\n")
    git(repo, "add", "x")
    git(repo, "commit", "-q", "-m", "x")
    key_of(repo)
    key_of(repo)
    monkeypatch.setenv("GIT_ICASE_PATHSPECS", "1")  # a user's setting must not leak in
    write(repo, name, "literal\n")
    key, ran = traced_key(repo, monkeypatch, tmp_path / "trace")
    assert "--pathspec-from-file" in ran and "git add -A" not in ran.splitlines()
    assert blob(repo, key, name) == b"literal\n"
    assert key == reference_key(repo)


@pytest.mark.parametrize("record", [
    b"u UU N... 100644 100644 100644 100644 " + b"1" * 40 + b" " + b"2" * 40 + b" "
    + b"3" * 40 + b" both.txt",
    b"2 R. N... 100644 100644 100644 " + b"1" * 40 + b" " + b"1" * 40 + b" R100 new\0old",
    b"! ignored.log",
])
def test_an_entry_a_kept_index_should_not_show_means_walk_everything(record: bytes) -> None:
    assert parse_status(b"? new.txt\0" + record + b"\0") is None


def test_status_entries_staged_only_are_not_work_tree_changes() -> None:
    staged = b"1 M. N... 100644 100644 100644 " + b"1" * 40 + b" " + b"2" * 40 + b" a b.txt"
    modified = b"1 .M N... 100644 100644 100644 " + b"1" * 40 + b" " + b"1" * 40 + b" c.txt"
    out = b"\0".join([staged, modified, b"? dir/", b"? f.txt", b""])
    assert parse_status(out) == [b"c.txt", b"dir", b"f.txt"]


def test_a_file_replaced_by_a_directory_and_back(warm: Path) -> None:
    os.unlink(warm / "src/a.txt")
    write(warm, "src/a.txt/inner.txt", "inside\n")
    assert key_of(warm) == reference_key(warm)
    shutil.rmtree(warm / "src")
    write(warm, "src", "a file now\n")
    assert key_of(warm) == reference_key(warm)


def test_mode_symlink_and_ignored_changes(warm: Path) -> None:
    os.chmod(warm / "src/a.txt", 0o755)
    os.unlink(warm / "src/b.txt")
    os.symlink("a.txt", warm / "src/b.txt")
    write(warm, ".gitignore", "*.log\n")
    write(warm, "logs/only.log", "ignored\n")
    key = key_of(warm)
    assert tree_entry(warm, key, "src/a.txt").startswith("100755 ")
    assert tree_entry(warm, key, "src/b.txt").startswith("120000 ")
    assert not tree_entry(warm, key, "logs")
    assert key == reference_key(warm)


def test_an_embedded_repository_appearing_becomes_a_gitlink(warm: Path) -> None:
    embedded = warm / "vendor" / "emb"
    embedded.mkdir(parents=True)
    git(embedded, "init", "-q")
    write(embedded, "x.txt")
    git(embedded, "add", "x.txt")
    git(embedded, "commit", "-q", "-m", "embedded")
    key = key_of(warm)
    assert tree_entry(warm, key, "vendor/emb").startswith("160000 commit ")
    assert key == reference_key(warm)


def test_a_path_gone_before_its_add_falls_back_to_add_all(warm: Path) -> None:
    """git refuses a pathspec that matches nothing (a file deleted between `git status`
    and `git add`); the refresh then walks the whole work tree instead."""
    write(warm, "new.txt", "new\n")
    with StateProbe(discover(warm)) as probe:
        probe.measure()
        write(warm, "later.txt", "later\n")
        probe._add([b"later.txt", b"vanished.txt"], {"GIT_INDEX_FILE": probe._index.path})
        assert probe.measure().state_key == reference_key(warm)


def test_untracked_cache_turned_off_by_the_user_walks_with_add_all(
        warm: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    git(warm, "config", "core.untrackedCache", "false")
    key_of(warm)  # the changed setting rebuilds the kept index
    write(warm, "src/a.txt", "changed\n")
    key, ran = traced_key(warm, monkeypatch, tmp_path / "trace")
    assert "git status" not in ran and "git add -A" in ran
    assert key == reference_key(warm)
