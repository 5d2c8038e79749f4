"""Index bits and stat settings cannot hide a work-tree edit from the state key.

An agent can mark a tracked file `assume-unchanged` or `skip-worktree`, point
`core.fsmonitor` at a hook that answers "nothing changed", or tell git to trust less of a
file's stat data; git's own `git add -A && git write-tree` then records the index's bytes
while the commands read the work tree's. The key is computed from the work-tree bytes
whatever the user's index and settings say; a skip-worktree path whose file exists with
other bytes is refused (exit 3) naming it. Every test runs on a cold repository and on a
warm one (its kept state index reused).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.errors import UnavailableError
from gitcorrex.git.repository import discover
from gitcorrex.git.state import compute_state
from tests.conftest import CliResult, git, write
from tests.git.state_helpers import blob, bytes_key, reference_key

Correx = Callable[..., CliResult]


@pytest.fixture(params=["cold", "warm"])
def project(request: pytest.FixtureRequest, make_repo: Callable[..., Path]) -> Path:
    """A committed project; "warm" keys it twice first, so its kept index is reused."""
    top = make_repo(files={"README.md": "hello\n", "tests/test_sum.py": "assert 1 + 1 == 3\n",
                           "src/app.py": "VALUE = 1\n"})
    old = time.time() - 3600
    for path in ("README.md", "tests/test_sum.py", "src/app.py", "tests", "src", "."):
        os.utime(top / path, (old, old))  # nothing racy: git trusts the stat data
    git(top, "update-index", "-q", "--refresh")
    if request.param == "warm":
        key_of(top)
        key_of(top)
    return top


def key_of(top: Path) -> str:
    return compute_state(discover(top)).state_key


def edit_same_size(top: Path, rel: str, text: str) -> None:
    """Rewrite `rel` in place with as many bytes, its mtime put back, in a later second
    than its last change (git compares ctimes to the second: within the same second
    even git's default checks miss such an edit)."""
    path = top / rel
    info = path.stat()
    time.sleep(1.02 - time.time() % 1)
    assert len(text.encode()) == info.st_size
    with open(path, "r+") as handle:
        handle.write(text)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def test_assume_unchanged_does_not_hide_an_edit(project: Path) -> None:
    git(project, "update-index", "--assume-unchanged", "tests/test_sum.py")
    write(project, "tests/test_sum.py", "assert True\n")
    assert reference_key(project) == git(project, "rev-parse", "HEAD^{tree}").strip()
    key = key_of(project)
    assert blob(project, key, "tests/test_sum.py") == b"assert True\n"
    assert key == bytes_key(project)


def test_assume_unchanged_set_by_core_ignorestat_does_not_hide_an_edit(
        project: Path) -> None:
    git(project, "config", "core.ignoreStat", "true")
    write(project, "src/app.py", "VALUE = 2\n")
    git(project, "add", "src/app.py")  # git marks the entry assume-unchanged
    assert git(project, "ls-files", "-v", "src/app.py").startswith("h ")
    write(project, "src/app.py", "VALUE = 3\n")
    assert blob(project, key_of(project), "src/app.py") == b"VALUE = 3\n"
    write(project, "src/app.py", "VALUE = 4\n")  # our own `git add` marks nothing either
    assert blob(project, key_of(project), "src/app.py") == b"VALUE = 4\n"


def test_assume_unchanged_in_a_hooks_own_index_does_not_hide_an_edit(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other-index"
    shutil.copy2(project / ".git" / "index", other)
    git(project, "update-index", "--assume-unchanged", "src/app.py",
        env={"GIT_INDEX_FILE": str(other)})
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    write(project, "src/app.py", "VALUE = 2\n")
    assert blob(project, key_of(project), "src/app.py") == b"VALUE = 2\n"


def test_a_lying_fsmonitor_hook_does_not_hide_an_edit(project: Path, tmp_path: Path) -> None:
    hook = write(tmp_path, "fsmonitor-hook", "#!/bin/sh\nprintf '%s\\0' \"$2\"\n")
    hook.chmod(0o755)
    git(project, "config", "core.fsmonitor", str(hook))
    git(project, "config", "core.fsmonitorHookVersion", "1")
    git(project, "status", "--porcelain")  # git writes its fsmonitor data into the index
    git(project, "update-index", "--fsmonitor-valid", "src/app.py")
    os.utime(project / "src/app.py", (time.time() - 3600,) * 2)  # nothing racy
    key_of(project)  # a kept index with stat data: only the file-system monitor could hide
    write(project, "src/app.py", "VALUE = 2\n")
    assert git(project, "status", "--porcelain") == ""  # git itself is blinded
    assert blob(project, key_of(project), "src/app.py") == b"VALUE = 2\n"


@pytest.mark.parametrize("setting", [("core.trustctime", "false"),
                                     ("core.checkStat", "minimal")])
def test_weakened_stat_checks_do_not_hide_a_same_size_edit(project: Path,
                                                           setting: tuple[str, str]) -> None:
    git(project, "config", *setting)
    os.utime(project / "src/app.py", (time.time() - 3600,) * 2)  # nothing racy
    key_of(project)  # a kept index with stat data: only weakened checks could hide the edit
    edit_same_size(project, "src/app.py", "VALUE = 7\n")
    assert git(project, "status", "--porcelain") == ""  # git itself is blinded
    assert blob(project, key_of(project), "src/app.py") == b"VALUE = 7\n"


def test_skip_worktree_file_with_other_bytes_is_refused(project: Path, correx: Correx) -> None:
    git(project, "update-index", "--skip-worktree", "tests/test_sum.py")
    write(project, "tests/test_sum.py", "assert True\n")
    with pytest.raises(UnavailableError, match=r"tests/test_sum\.py"):
        key_of(project)
    result = correx(project, "state")
    assert result.code == 3, result
    assert "tests/test_sum.py" in result.stderr and "skip-worktree" in result.stderr
    assert "--no-skip-worktree" in result.stderr
    assert result.stdout == ""


def test_skip_worktree_file_with_the_same_bytes_is_keyed(project: Path) -> None:
    git(project, "update-index", "--skip-worktree", "tests/test_sum.py")
    os.utime(project / "tests/test_sum.py")  # touched, not changed
    assert key_of(project) == reference_key(project) == bytes_key(project)


def test_a_refused_skip_worktree_file_is_keyed_once_tracked_again(project: Path) -> None:
    git(project, "update-index", "--skip-worktree", "tests/test_sum.py")
    write(project, "tests/test_sum.py", "assert True\n")
    with pytest.raises(UnavailableError):
        key_of(project)
    git(project, "update-index", "--no-skip-worktree", "tests/test_sum.py")
    assert blob(project, key_of(project), "tests/test_sum.py") == b"assert True\n"


@pytest.fixture
def sparse(make_repo: Callable[..., Path]) -> Path:
    """A cone-mode sparse checkout of `in/`: `out/` is absent, its entries skip-worktree."""
    top = make_repo(files={"top.txt": "top\n", "in/a.txt": "a\n", "out/b.txt": "b\n",
                           "out/deep/c.txt": "c\n"})
    git(top, "sparse-checkout", "set", "in")
    assert not (top / "out").exists()
    return top


def test_sparse_checkout_keeps_absent_paths_as_git_records_them(sparse: Path) -> None:
    write(sparse, "in/a.txt", "edited\n")
    for _ in range(2):  # cold, then on the kept index
        key = key_of(sparse)
        assert key == reference_key(sparse)
        assert blob(sparse, key, "out/deep/c.txt") == b"c\n"
        assert blob(sparse, key, "in/a.txt") == b"edited\n"


def test_sparse_checkout_refuses_a_path_outside_the_cone_with_other_bytes(
        sparse: Path, correx: Correx) -> None:
    key_of(sparse)
    write(sparse, "out/deep/c.txt", "not what the index records\n")
    with pytest.raises(UnavailableError, match=r"out/deep/c\.txt"):
        key_of(sparse)
    result = correx(sparse, "state")
    assert result.code == 3, result
    assert "out/deep/c.txt" in result.stderr


def test_sparse_checkout_keys_a_path_outside_the_cone_with_the_same_bytes(
        sparse: Path) -> None:
    key_of(sparse)
    write(sparse, "out/b.txt", "b\n")
    assert key_of(sparse) == reference_key(sparse)


def test_sparse_checkout_keys_a_tracked_file_git_stopped_marking(sparse: Path) -> None:
    """git clears skip-worktree from a present file and writes that back; `git add -A`
    then still skips the file outside the cone, whatever its bytes. The key does not."""
    write(sparse, "out/b.txt", "b\n")
    git(sparse, "status", "--porcelain")  # git writes the index with the bit cleared
    assert git(sparse, "ls-files", "-v", "out/b.txt").startswith("H ")
    write(sparse, "out/b.txt", "edited outside the cone\n")
    assert blob(sparse, reference_key(sparse), "out/b.txt") == b"b\n"  # git's own answer
    assert blob(sparse, key_of(sparse), "out/b.txt") == b"edited outside the cone\n"
