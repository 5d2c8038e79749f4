"""The state key equals `git add -A && git write-tree` on a copy of the index, and computing
it leaves the index, HEAD, refs and files exactly as they were (DESIGN invariant 1).

Every test runs twice: on a cold repository (the kept state index is built from the user's
index) and on a warm one (keyed twice before the test changes anything, so its kept index
carries git's untracked cache and the change is found by `git status`, state_scan.py).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.errors import UnavailableError
from gitcorrex.git.repository import discover
from gitcorrex.git.state import EMPTY_TREE, EMPTY_TREE_SHA256, compute_state
from tests.conftest import git, write
from tests.git.state_helpers import assert_state_matches_git, blob, tree_entry


@pytest.fixture(params=["cold", "warm"])
def make_repo(request: pytest.FixtureRequest,
              make_repo: Callable[..., Path]) -> Callable[..., Path]:
    """conftest's factory; "warm" keys each new repository twice before handing it over."""
    if request.param == "cold":
        return make_repo

    def warm(*args: object, **kwargs: object) -> Path:
        top = make_repo(*args, **kwargs)
        compute_state(discover(top))
        compute_state(discover(top))
        return top

    return warm


def head_tree(top: Path) -> str:
    return git(top, "rev-parse", "HEAD^{tree}").strip()


def test_clean_workspace_key_is_head_tree(repo: Path) -> None:
    result = assert_state_matches_git(repo)
    assert (result.state_key, result.head_tree, result.dirty) == (
        head_tree(repo),
        head_tree(repo),
        False,
    )


def test_modified_file_changes_the_key(repo: Path) -> None:
    write(repo, "README.md", "changed\n")
    result = assert_state_matches_git(repo)
    assert result.dirty
    assert blob(repo, result.state_key, "README.md") == b"changed\n"


def test_staged_only_change_matches_the_index_tree(repo: Path) -> None:
    write(repo, "README.md", "staged\n")
    git(repo, "add", "README.md")
    result = assert_state_matches_git(repo)
    assert result.state_key == git(repo, "write-tree").strip()
    assert result.dirty


def test_untracked_file_is_included(repo: Path) -> None:
    write(repo, "src/new.py", "print(1)\n")
    result = assert_state_matches_git(repo)
    assert tree_entry(repo, result.state_key, "src/new.py")


def test_gitignored_file_is_left_out(make_repo: Callable[..., Path]) -> None:
    top = make_repo(files={"README.md": "hi\n", ".gitignore": "*.log\nbuild/\n"})
    write(top, "debug.log")
    write(top, "build/out.bin", b"\0\1")
    assert assert_state_matches_git(top).state_key == head_tree(top)


def test_info_exclude_file_is_left_out(repo: Path) -> None:
    write(repo, ".git/info/exclude", "secret.txt\n")
    write(repo, "secret.txt")
    assert not assert_state_matches_git(repo).dirty


def test_tracked_file_under_an_ignore_rule_stays_tracked(repo: Path) -> None:
    write(repo, ".git/info/exclude", "README.md\n")
    write(repo, "README.md", "still tracked\n")
    result = assert_state_matches_git(repo)
    assert blob(repo, result.state_key, "README.md") == b"still tracked\n"


def test_file_deleted_from_disk_is_left_out(repo: Path) -> None:
    (repo / "README.md").unlink()
    result = assert_state_matches_git(repo)
    assert result.state_key == EMPTY_TREE


def test_staged_deletion_is_left_out(make_repo: Callable[..., Path]) -> None:
    top = make_repo(files={"a.txt": "a\n", "b.txt": "b\n"})
    git(top, "rm", "-q", "a.txt")
    assert not tree_entry(top, assert_state_matches_git(top).state_key, "a.txt")


def test_unstaged_file_still_on_disk_is_included(repo: Path) -> None:
    git(repo, "rm", "-q", "--cached", "README.md")
    assert assert_state_matches_git(repo).state_key == head_tree(repo)


def test_touched_but_unchanged_file_is_clean_and_index_not_refreshed(repo: Path) -> None:
    os.utime(repo / "README.md", ns=(1_000_000_000, 1_000_000_000))
    assert not assert_state_matches_git(repo).dirty


def test_executable_bit_is_part_of_the_key(make_repo: Callable[..., Path]) -> None:
    top = make_repo(files={"run.sh": "#!/bin/sh\n"})
    os.chmod(top / "run.sh", 0o755)
    result = assert_state_matches_git(top)
    assert tree_entry(top, result.state_key, "run.sh").startswith("100755 ")


def test_new_symlink_is_recorded_as_a_link(repo: Path) -> None:
    os.symlink("README.md", repo / "link")
    result = assert_state_matches_git(repo)
    assert tree_entry(repo, result.state_key, "link").startswith("120000 ")
    assert blob(repo, result.state_key, "link") == b"README.md"


def test_changed_symlink_target_changes_the_key(repo: Path) -> None:
    os.symlink("README.md", repo / "link")
    git(repo, "add", "link")
    git(repo, "commit", "-q", "-m", "link")
    (repo / "link").unlink()
    os.symlink("../elsewhere", repo / "link")
    assert blob(repo, assert_state_matches_git(repo).state_key, "link") == b"../elsewhere"


def test_file_replaced_by_symlink_is_a_type_change(make_repo: Callable[..., Path]) -> None:
    top = make_repo(files={"a.txt": "a\n", "b.txt": "b\n"})
    (top / "a.txt").unlink()
    os.symlink("b.txt", top / "a.txt")
    assert tree_entry(top, assert_state_matches_git(top).state_key, "a.txt").startswith("120000")


def test_moved_submodule_head_updates_the_gitlink(make_repo: Callable[..., Path]) -> None:
    sub = make_repo("sub", files={"lib.txt": "v1\n"})
    top = make_repo()
    git(top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "mods/sub")
    git(top, "commit", "-q", "-m", "add submodule")
    write(top, "mods/sub/lib.txt", "v2\n")
    git(top / "mods/sub", "commit", "-q", "-am", "v2")
    new_commit = git(top / "mods/sub", "rev-parse", "HEAD").strip()
    result = assert_state_matches_git(top)
    assert tree_entry(top, result.state_key, "mods/sub").startswith(f"160000 commit {new_commit}")


def test_untracked_embedded_repository_becomes_a_gitlink(repo: Path) -> None:
    embedded = repo / "vendor" / "emb"
    embedded.mkdir(parents=True)
    git(embedded, "init", "-q")
    write(embedded, "x.txt")
    git(embedded, "add", "x.txt")
    git(embedded, "commit", "-q", "-m", "embedded")
    result = assert_state_matches_git(repo)
    assert tree_entry(repo, result.state_key, "vendor/emb").startswith("160000 commit ")


def test_text_auto_and_crlf_attribute_normalise_line_endings(
    make_repo: Callable[..., Path],
) -> None:
    top = make_repo(files={".gitattributes": "* text=auto\n*.txt eol=crlf\n", "a.txt": "a\n"})
    write(top, "a.txt", b"one\r\ntwo\r\n")
    write(top, "b.md", b"three\r\n")
    result = assert_state_matches_git(top)
    assert blob(top, result.state_key, "a.txt") == b"one\ntwo\n"
    assert blob(top, result.state_key, "b.md") == b"three\n"


def test_core_autocrlf_is_refused_rather_than_keyed(repo: Path) -> None:
    """git would store `crlf\nline\n` while the commands read CRLF: a conversion the tree
    does not declare (test_state_attributes.py)."""
    git(repo, "config", "core.autocrlf", "true")
    write(repo, "win.txt", b"crlf\r\nline\r\n")
    with pytest.raises(UnavailableError, match=r"core\.autocrlf"):
        compute_state(discover(repo))


def test_external_clean_filter_runs_like_git(repo: Path) -> None:
    git(repo, "config", "filter.upper.clean", "tr a-z A-Z")
    write(repo, ".gitattributes", "*.up filter=upper\n")
    write(repo, "shout.up", "hello\n")
    assert blob(repo, assert_state_matches_git(repo).state_key, "shout.up") == b"HELLO\n"


def test_working_tree_encoding_is_converted_like_git(repo: Path) -> None:
    write(repo, ".gitattributes", "*.u16 text working-tree-encoding=UTF-16\n")
    write(repo, "wide.u16", "héllo\n".encode("utf-16"))
    result = assert_state_matches_git(repo)
    assert blob(repo, result.state_key, "wide.u16") == "héllo\n".encode()


def test_unborn_head_with_files(make_repo: Callable[..., Path]) -> None:
    top = make_repo(files={"a.txt": "a\n"}, commit=False)
    result = assert_state_matches_git(top)
    assert result.head_tree is None
    assert result.dirty
    assert tree_entry(top, result.state_key, "a.txt")


def test_empty_unborn_repository_is_the_empty_tree(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "empty")
    result = assert_state_matches_git(tmp_path / "empty")
    assert (result.state_key, result.head_tree, result.dirty) == (EMPTY_TREE, None, False)


def test_sha256_repository_uses_its_own_empty_tree(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "--object-format=sha256", "wide")
    result = assert_state_matches_git(tmp_path / "wide")
    assert (result.state_key, result.dirty) == (EMPTY_TREE_SHA256, False)


@pytest.mark.parametrize(
    "name", [b"with space/a b.txt", b"new\nline.txt", b"caf\xe9-latin1.txt", "日本語.txt".encode()]
)
def test_unusual_path_names(repo: Path, name: bytes) -> None:
    path = os.path.join(os.fsencode(repo), name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(b"odd\n")
    result = assert_state_matches_git(repo)
    assert tree_entry(repo, result.state_key, os.fsdecode(name))


def test_racily_clean_edit_is_seen(repo: Path) -> None:
    """An edit in the same second as the index write keeps size and (to the second) mtime;
    git re-reads such entries only because the index's own mtime says so. A plain `cp` of
    the index would reset that mtime and hide the edit; the key must not."""
    time.sleep(1.02 - time.time() % 1)
    write(repo, "race.txt", "aaaa\n")
    git(repo, "add", "race.txt")
    with open(repo / "race.txt", "r+") as handle:
        handle.write("bbbb\n")
    if int((repo / "race.txt").stat().st_mtime) != int((repo / ".git/index").stat().st_mtime):
        pytest.skip("the machine was too slow to race within one second")
    time.sleep(1.02 - time.time() % 1)
    result = compute_state(discover(repo))
    assert blob(repo, result.state_key, "race.txt") == b"bbbb\n"
