"""State keys: the tree `git add -A && git write-tree` would record, via a throwaway index.

The key is defined as what git itself gives for
`cp <index> X; GIT_INDEX_FILE=X git add -A; GIT_INDEX_FILE=X git write-tree`, run from the
work tree's top level, so it is computed with the git binary, not libgit2. Measured on
50,000 files, libgit2's `add_all` takes ~0.5 s against ~0.29 s for git's pipeline, and
libgit2 cannot run external filter drivers (`filter.<x>.clean` / `.process`) nor honour
`working-tree-encoding`: a key that differs from git's would be a wrong key.

Why a copy of the index and not a fresh one: the copy keeps git's stat cache (only changed
files are hashed again) and keeps tracked-but-ignored files tracked, exactly as the user's
own `git add -A` would. The copy also keeps the index file's mtime, unlike plain `cp`: git
re-reads "racily clean" entries (modified within the index's own timestamp), and a fresh
mtime would hide such an edit (shown on git 2.39 by test_racily_clean_edit_is_seen);
outside that race the result is the same as with `cp`.

Nothing the user owns changes: the copy lives in the git dir under a unique name and is
deleted (with its `.lock`) whatever happens; git only adds objects. Git's stderr (e.g. the
"adding embedded git repository" hint) is captured, never shown. This module imports
neither pygit2 nor pydantic: `git correx state` must stay close to git's own speed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from gitcorrex.errors import (
    EnvironmentFaultError,
    GitCommandError,
    UnavailableError,
    environmental_error,
)
from gitcorrex.git import owned_files
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.repository import Repository
from gitcorrex.threads import in_background

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
EMPTY_TREE_SHA256 = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"
TEMP_INDEX_PREFIX = "correx-index-"


@dataclass(frozen=True)
class WorkspaceState:
    """A workspace's key, HEAD's tree (None while HEAD is unborn) and whether they differ."""

    state_key: str
    head_tree: str | None
    dirty: bool


def empty_tree_oid(object_format: str = "sha1") -> str:
    """The tree with no entries: what an unborn HEAD is compared against."""
    return EMPTY_TREE_SHA256 if object_format == "sha256" else EMPTY_TREE


def compute_state(repo: Repository) -> WorkspaceState:
    """Key the workspace and compare it with HEAD; a bare repository raises (exit 2)."""
    root = repo.root
    head_tree_result = in_background(lambda: head_tree_oid(root), name="correx-head-tree")
    key = _write_workspace_tree(repo.index_file, git_dir=repo.git_dir, root=root)
    head_tree = head_tree_result()
    baseline = head_tree or empty_tree_oid("sha256" if len(key) == 64 else "sha1")
    return WorkspaceState(state_key=key, head_tree=head_tree, dirty=key != baseline)


def state_key(repo: Repository) -> str:
    """Just the key, for callers that do not care about HEAD."""
    return _write_workspace_tree(repo.index_file, git_dir=repo.git_dir, root=repo.root)


class StateProbe:
    """Measure one workspace twice (before and after commands run) on one private index.

    The second measurement reuses the refreshed private index of the first, so git only
    re-hashes what changed in between (on 50,000 files: no second index copy, and no
    write-tree at all when `git add -A` found nothing to change). It equals a fresh
    computation unless ignore rules outside the tree (`.git/info/exclude`,
    `core.excludesFile`) changed in between to ignore a file that was untracked before —
    and then the files themselves did not change.
    """

    def __init__(self, repo: Repository) -> None:
        self._root = repo.root
        self._temp = _reserve_temp_index(repo.git_dir)
        self._pending: Callable[[], WorkspaceState] | None = None
        self._last: tuple[tuple[int, int, int], str] | None = None
        self._head = in_background(lambda: head_tree_oid(self._root), name="correx-head-tree")
        try:
            _copy_index(repo.index_file, Path(self._temp))
        except BaseException:
            self.close()
            raise

    def begin(self) -> StateProbe:
        """Start the next measurement on a thread: git scans the work tree while the caller
        loads what it needs (verify's imports and profile take about as long as the scan)."""
        self._pending = in_background(self._measure_now, name="correx-state")
        return self

    def measure(self) -> WorkspaceState:
        """The workspace's state now (or when `begin` was called); HEAD is read once."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            return pending()
        return self._measure_now()

    def _measure_now(self) -> WorkspaceState:
        env = {"GIT_INDEX_FILE": self._temp}
        _add_all(self._root, env)
        stamp = _file_stamp(self._temp)
        if self._last is not None and stamp == self._last[0]:
            key = self._last[1]  # git left the index unwritten: nothing changed since
        else:
            out = run_git(["write-tree"], cwd=self._root, env=env).stdout
            key = out.decode("ascii").strip()
            self._last = (_file_stamp(self._temp), key)
        head_tree = self._head()
        baseline = head_tree or empty_tree_oid("sha256" if len(key) == 64 else "sha1")
        return WorkspaceState(state_key=key, head_tree=head_tree, dirty=key != baseline)

    def close(self) -> None:
        """Wait for a measurement still running, then delete the private index (and lock)."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            with suppress(Exception):
                pending()
        _remove_temp_index(self._temp)

    def __enter__(self) -> StateProbe:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _file_stamp(path: str) -> tuple[int, int, int]:
    """Inode, size and mtime: git rewrites the index through a new file when it changes
    anything (SKIP_IF_UNCHANGED otherwise), so an equal stamp means identical content."""
    info = os.stat(path)
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def head_tree_oid(root: Path) -> str | None:
    """HEAD's tree as hex; None when HEAD is unborn (no commit yet)."""
    args = ["rev-parse", "-q", "--verify", "HEAD^{tree}"]
    result = run_git(args, cwd=root, check=False)
    if result.returncode == 0:
        return result.stdout.decode("ascii").strip()
    if result.returncode == 1 and not result.stdout:
        return None
    raise GitCommandError(["git", *args], result.returncode, decode_path(result.stderr))


def _write_workspace_tree(index_file: Path, *, git_dir: Path, root: Path) -> str:
    """Run `add -A` + `write-tree` on a private copy of `index_file`, then delete the copy."""
    temp = _reserve_temp_index(git_dir)
    try:
        _copy_index(index_file, Path(temp))
        env = {"GIT_INDEX_FILE": temp}
        _add_all(root, env)
        out = run_git(["write-tree"], cwd=root, env=env).stdout
    finally:
        _remove_temp_index(temp)
    return out.decode("ascii").strip()


def _remove_temp_index(temp: str) -> None:
    for path in (temp, temp + ".lock"):
        with suppress(FileNotFoundError):
            os.unlink(path)


def _reserve_temp_index(git_dir: Path) -> str:
    """A name inside the git dir (same filesystem as the index) that carries this process
    as its owner, so a later run removes it should we be killed (git/owned_files.py)."""
    try:
        return owned_files.reserve(git_dir, TEMP_INDEX_PREFIX)
    except OSError as exc:
        fault = environmental_error(exc)
        if fault is not None:
            raise fault from exc
        raise UnavailableError(
            f"cannot create a temporary index in {git_dir}: {exc.strerror}",
            hint="computing a state key needs write access to the git directory",
        ) from exc


def _add_all(root: Path, env: dict[str, str]) -> None:
    """`git add -A` on the private index; its failure must not suggest running it by hand,
    which would stage everything in the user's own index."""
    try:
        run_git(["add", "-A"], cwd=root, env=env)
    except GitCommandError as exc:
        fault = _store_fault(root, exc)
        if fault is not None:
            raise fault from exc
        embedded = "does not have a commit checked out" in exc.stderr
        raise UnavailableError(
            f"cannot compute the state key: `git add -A` failed on a private copy of the "
            f"index (yours was not touched):\n{exc.stderr.strip()}",
            hint="commit in the embedded repository or list it in .gitignore, then try again"
            if embedded else "fix what git reports above, then try again",
        ) from exc


def _store_fault(root: Path, exc: GitCommandError) -> EnvironmentFaultError | None:
    """A read-only, inaccessible or full object store behind git's failure, naming it."""
    if environmental_error(exc) is None and "insufficient permission" not in exc.stderr:
        return None
    from gitcorrex.git.write_faults import object_store_fault

    found = run_git(["rev-parse", "--path-format=absolute", "--git-path", "objects"],
                    cwd=root, check=False).stdout
    objects = Path(decode_path(found).strip() or root / ".git" / "objects")
    return object_store_fault(objects) or environmental_error(exc)


def _copy_index(source: Path, target: Path) -> None:
    """Copy bytes and mtime; with no index yet, start from no file (git refuses empty ones)."""
    try:
        shutil.copy2(source, target)
    except FileNotFoundError:
        target.unlink()
    except OSError as exc:
        fault = environmental_error(exc)
        if fault is None:
            raise
        raise fault from exc
