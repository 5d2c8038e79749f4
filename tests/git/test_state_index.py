"""The persistent state index: reused between runs, yet every key equals the definition's.

Each test changes something a kept index could miss (a racy edit, another HEAD, a deleted
or replaced index, new ignore rules, changed settings, the user's index) and compares the
key with `reference_key`, the definition run by git on a copy of the user's index.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from gitcorrex.git.repository import discover
from gitcorrex.git.state import StateProbe, compute_state
from tests.conftest import git, write
from tests.git.state_helpers import blob, bytes_key, reference_key

KEPT = Path(".git/correx/state-index")
RECORD = Path(".git/correx/state-index.json")


def key_of(repo: Path) -> str:
    return compute_state(discover(repo)).state_key


def test_second_run_reuses_the_kept_index_without_rewriting_it(repo: Path) -> None:
    write(repo, "new.txt", "untracked\n")
    for name in ("README.md", "new.txt", "."):  # not racy: git has no reason to rewrite
        os.utime(repo / name, (time.time() - 3600,) * 2)  # (the directory: its cache entry)
    assert key_of(repo) == reference_key(repo)
    assert key_of(repo) == reference_key(repo)  # the first reuse adds git's untracked cache
    kept = os.stat(repo / KEPT)
    assert key_of(repo) == reference_key(repo)
    again = os.stat(repo / KEPT)
    assert (again.st_ino, again.st_mtime_ns) == (kept.st_ino, kept.st_mtime_ns)
    assert json.loads((repo / RECORD).read_text())["key"] == reference_key(repo)


def test_an_edit_racing_the_kept_index_write_is_seen(repo: Path) -> None:
    """Same size, same mtime second as the kept index's own write: git's racy-entry rule
    alone says the file must be read again."""
    key_of(repo)  # the kept index exists; the next runs reuse it
    for _ in range(5):
        time.sleep(1.02 - time.time() % 1)
        write(repo, "race.txt", "aaaa\n")
        key_of(repo)
        with open(repo / "race.txt", "r+") as handle:
            handle.write("bbbb\n")
        same_second = int((repo / "race.txt").stat().st_mtime) == int(
            (repo / KEPT).stat().st_mtime)
        if same_second:
            break
    else:
        pytest.skip("the machine was too slow to race within one second")
    key = key_of(repo)
    assert blob(repo, key, "race.txt") == b"bbbb\n"
    assert key == reference_key(repo)


@pytest.mark.parametrize("index", ["kept", "scratch"])
def test_a_same_size_edit_with_its_mtime_put_back_within_the_keys_second_is_seen(
        repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, index: str) -> None:
    """A tracked file written, keyed, then edited to the same size with its mtime put back,
    all within one second: git (built without `USE_NSEC`, as Debian's is) compares times to
    the second, so the entry's size, mtime and ctime all match. What sees the edit is git's
    racy-entry rule (an entry as new as its index file is read again), which holds only
    while the index file keeps its own time: on the kept index, and on a scratch index made
    a second later from a copy of it (`copy_index` keeps the time; `GIT_INDEX_FILE`
    elsewhere makes verify key on a scratch index)."""
    key_of(repo)
    for _ in range(5):
        time.sleep(1.02 - time.time() % 1)
        write(repo, "race.txt", "aaaa\n")
        git(repo, "add", "race.txt")  # the user's entry: the seed keeps the kept stat data
        written = (repo / "race.txt").stat()
        before = key_of(repo)
        (repo / "race.txt").write_bytes(b"bbbb\n")
        os.utime(repo / "race.txt", ns=(written.st_atime_ns, written.st_mtime_ns))
        edited = (repo / "race.txt").stat()
        kept = (repo / KEPT).stat()
        if int(edited.st_ctime) == int(written.st_ctime) == int(kept.st_mtime):
            break
    else:
        pytest.skip("the machine was too slow to race within one second")
    assert (edited.st_size, edited.st_mtime_ns) == (written.st_size, written.st_mtime_ns)
    assert blob(repo, before, "race.txt") == b"aaaa\n"
    if index == "scratch":
        own = tmp_path / "own-index"
        shutil.copyfile(repo / ".git" / "index", own)
        monkeypatch.setenv("GIT_INDEX_FILE", str(own))
        time.sleep(1.02 - time.time() % 1)  # the scratch copy is made in a later second
    key = key_of(repo)
    assert blob(repo, key, "race.txt") == b"bbbb\n"
    assert key == reference_key(repo, own if index == "scratch" else None)


def test_a_kept_index_from_another_head_gives_this_heads_key(repo: Path) -> None:
    write(repo, ".gitignore", "*.log\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore logs")
    git(repo, "checkout", "-q", "-b", "other")
    write(repo, "tracked.log", "forced in\n")
    git(repo, "add", "-f", "tracked.log")
    write(repo, "other.txt", "only on other\n")
    git(repo, "add", "other.txt")
    git(repo, "commit", "-q", "-m", "other")
    assert key_of(repo) == reference_key(repo)
    git(repo, "checkout", "-q", "main")
    write(repo, "tracked.log", "left behind, ignored\n")
    assert key_of(repo) == reference_key(repo)
    git(repo, "checkout", "-q", "other")
    assert key_of(repo) == reference_key(repo)


def test_a_replaced_kept_index_is_not_trusted(repo: Path) -> None:
    write(repo, ".gitignore", "*.log\n")
    write(repo, "debug.log", "ignored\n")
    key_of(repo)
    # Someone else's index in its place (here one that tracks an ignored file), record kept.
    git(repo, "add", "-f", "debug.log", env={"GIT_INDEX_FILE": str(repo / KEPT)})
    assert key_of(repo) == reference_key(repo)
    assert "debug.log" not in git(repo, "ls-tree", "-r", "--name-only", key_of(repo))


def test_a_deleted_kept_index_is_rebuilt(repo: Path) -> None:
    write(repo, "a.txt", "a\n")
    key_of(repo)
    os.unlink(repo / KEPT)
    write(repo, "b.txt", "b\n")
    assert key_of(repo) == reference_key(repo)
    assert (repo / KEPT).exists() and (repo / RECORD).exists()


def test_a_file_ignored_after_it_was_keyed_leaves_the_key(repo: Path) -> None:
    write(repo, "build/out.bin", "artefact\n")
    write(repo, "notes.txt", "kept\n")
    assert key_of(repo) == reference_key(repo)
    write(repo, ".gitignore", "build/\n")
    assert key_of(repo) == reference_key(repo)
    assert key_of(repo) == reference_key(repo)


def test_a_changed_clean_filter_rehashes_what_the_kept_index_hashed(repo: Path) -> None:
    write(repo, ".gitattributes", "*.txt filter=shout\n")
    git(repo, "config", "filter.shout.clean", "tr a-z A-Z")
    write(repo, "words.txt", "hello\n")
    os.utime(repo / "words.txt", (time.time() - 3600,) * 2)  # not racy: git trusts its stat
    assert key_of(repo) == reference_key(repo)
    git(repo, "config", "filter.shout.clean", "cat")
    key = key_of(repo)
    assert blob(repo, key, "words.txt") == b"hello\n"
    assert key == reference_key(repo)


def test_a_file_forced_into_the_users_index_is_keyed(repo: Path) -> None:
    write(repo, ".gitignore", "*.log\n")
    write(repo, "debug.log", "wanted\n")
    assert key_of(repo) == reference_key(repo)
    git(repo, "add", "-f", "debug.log")
    key = key_of(repo)
    assert blob(repo, key, "debug.log") == b"wanted\n"
    assert key == reference_key(repo)


def test_a_hooks_own_index_is_keyed_on_a_scratch_copy(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other-index"
    shutil.copy2(repo / ".git" / "index", other)
    write(repo, "x.txt", "x\n")
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    assert key_of(repo) == reference_key(repo, index=other)
    assert not (repo / ".git" / "correx").exists()


def test_a_second_probe_while_the_first_holds_the_kept_index_uses_a_copy(repo: Path) -> None:
    write(repo, "x.txt", "x\n")
    with StateProbe(discover(repo)) as first:
        assert first.on_kept_index
        with StateProbe(discover(repo)) as second:
            assert not second.on_kept_index
            write(repo, "y.txt", "y\n")
            assert second.measure().state_key == reference_key(repo)
        assert first.measure().state_key == reference_key(repo)
    assert not list((repo / ".git").glob("correx-index-*"))


def test_a_key_whose_tree_was_pruned_is_written_again(repo: Path) -> None:
    write(repo, "dir/new.txt", "never committed\n")
    for name in ("README.md", "dir/new.txt"):  # not racy: git has no reason to rewrite
        os.utime(repo / name, (time.time() - 3600,) * 2)
    key = key_of(repo)
    assert key_of(repo) == key_of(repo) == key  # the last one reuses the recorded key
    git(repo, "gc", "-q", "--prune=now")
    assert subprocess.run(["git", "cat-file", "-e", key], cwd=repo).returncode != 0
    assert key_of(repo) == key
    assert "dir/new.txt" in git(repo, "ls-tree", "-r", "--name-only", key)  # before the
    assert key == reference_key(repo)  # reference's own write-tree could restore it


def test_a_blob_only_the_kept_index_held_is_hashed_again_after_gc(repo: Path) -> None:
    write(repo, "untracked.txt", "hashed by us only\n")
    os.utime(repo / "untracked.txt", (time.time() - 3600,) * 2)
    key_of(repo)
    git(repo, "gc", "-q", "--prune=now")  # git keeps what .git/index references, not ours
    key = key_of(repo)
    assert git(repo, "cat-file", "-p", f"{key}:untracked.txt") == "hashed by us only\n"
    assert key == reference_key(repo)


def test_a_tracked_ignored_file_deleted_and_recreated_is_keyed(repo: Path) -> None:
    """The user's index tracks z.tmp although a rule ignores it; once the kept index has
    dropped it (deleted), its return must be keyed as a copy of the user's index keys it."""
    write(repo, "z.tmp", "tracked\n")
    git(repo, "add", "z.tmp")
    git(repo, "commit", "-qm", "tracked before the rule")
    write(repo, ".gitignore", "*.tmp\n")
    assert key_of(repo) == reference_key(repo)
    os.unlink(repo / "z.tmp")
    assert key_of(repo) == reference_key(repo)
    write(repo, "z.tmp", "back again\n")
    assert key_of(repo) == reference_key(repo)


def test_a_merge_conflict_gives_the_definitions_key(repo: Path) -> None:
    """Unmerged entries (stages 1 to 3) in the user's index, written into the kept index
    entry by entry: every key equals `git add -A && git write-tree` on a copy, before the
    merge, in the conflict, and as each file is resolved."""
    write(repo, "f.txt", "base\n")
    write(repo, "g.txt", "base\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "theirs")
    write(repo, "f.txt", "theirs\n")
    write(repo, "g.txt", "theirs\n")
    git(repo, "commit", "-q", "-am", "theirs")
    git(repo, "checkout", "-q", "main")
    write(repo, "f.txt", "ours\n")
    write(repo, "g.txt", "ours\n")
    git(repo, "commit", "-q", "-am", "ours")
    assert key_of(repo) == reference_key(repo)  # the kept index: stage 0 only
    merged = subprocess.run(["git", "merge", "-q", "theirs"], cwd=repo, capture_output=True,
                            check=False)
    assert merged.returncode != 0
    assert " 3\tf.txt" in git(repo, "ls-files", "-s")
    assert key_of(repo) == reference_key(repo)  # conflict markers, as the files hold them
    assert key_of(repo) == reference_key(repo)
    write(repo, "g.txt", "resolved\n")
    git(repo, "add", "g.txt")
    assert " 3\tf.txt" in git(repo, "ls-files", "-s")
    assert key_of(repo) == reference_key(repo)
    git(repo, "checkout", "--theirs", "f.txt")
    assert key_of(repo) == reference_key(repo)
    git(repo, "add", "f.txt")
    assert key_of(repo) == reference_key(repo)


ODD_NAMES = [b"tab\there.txt", b"new\nline.txt", b"caf\xe9.txt", "\u202eevil.txt".encode(),
             b"h x.txt", b" leading space.txt", b"0 dir/s 0\tname"]


def test_odd_names_through_a_rebuild_give_the_definitions_key(repo: Path) -> None:
    """Names with a tab, a newline, a non-UTF-8 byte, a bidi mark, or the look of an
    `ls-files -s -v` line: kept, changed, removed and assumed unchanged through the
    kept index made again after each commit."""
    for name in ODD_NAMES:
        path = repo.joinpath(os.fsdecode(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"first " + name + b"\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "odd names")
    assert key_of(repo) == reference_key(repo)
    for name in ODD_NAMES[:3]:
        repo.joinpath(os.fsdecode(name)).write_bytes(b"second\n")
    os.remove(repo.joinpath(os.fsdecode(ODD_NAMES[3])))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "changed and removed")
    assert key_of(repo) == reference_key(repo)
    git(repo, "update-index", "--assume-unchanged", "--", os.fsdecode(ODD_NAMES[4]))
    repo.joinpath(os.fsdecode(ODD_NAMES[4])).write_bytes(b"edited, assumed unchanged\n")
    key = key_of(repo)
    assert key == bytes_key(repo)  # the edit is keyed: the bit is not carried
    assert key == key_of(repo)
