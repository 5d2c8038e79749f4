"""State keys: the tree `git add -A && git write-tree` would record, via a private index.

The key is defined as what git itself gives for
`cp <index> X; GIT_INDEX_FILE=X git add -A; GIT_INDEX_FILE=X git write-tree`, run from the
work tree's top level, so it is computed with the git binary, not libgit2. Measured on
50,000 files, libgit2's `add_all` takes ~0.5 s against ~0.29 s for git's pipeline, and
libgit2 cannot run external filter drivers (`filter.<x>.clean` / `.process`) nor honour
`working-tree-encoding`: a key that differs from git's would be a wrong key.

The private index is the worktree's persistent one when it is free and trusted, else a copy
(`state_index.py` says which and why; `state_index_trust.py` when a kept index must be
rebuilt). Either way it starts from the user's index, so it keeps git's stat cache and
keeps tracked-but-ignored files tracked, exactly as the user's own `git add -A` would, and
it keeps the index file's mtime: git re-reads "racily clean" entries (modified within the
index's own timestamp), and a fresh mtime would hide such an edit.

What could make the key name other bytes than the work tree holds is never inherited
(assume-unchanged bits, a file-system monitor, weakened stat checks, sparse rules:
`state_index_bits.py`) or refused with exit 3 (a skip-worktree file present with other
bytes; an attribute rule the tree does not declare: `state_attributes.py`).

Nothing the user owns changes: git only adds objects. Git's stderr (e.g. the "adding
embedded git repository" hint) is captured, never shown. This module imports neither
pygit2 nor pydantic: `git correx state` must stay close to git's own speed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from gitcorrex.errors import (
    EnvironmentFaultError,
    GitCommandError,
    UnavailableError,
    environmental_error,
)
from gitcorrex.git.background import in_background
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.repository import Repository
from gitcorrex.git.state_attributes import undeclared_error, undeclared_rule
from gitcorrex.git.state_index import TEMP_INDEX_PREFIX, StateIndex, open_state_index
from gitcorrex.git.state_index_claim import file_stamp, has_untracked_cache
from gitcorrex.git.state_index_forgotten import add_back, to_add_back
from gitcorrex.git.state_index_trust import (
    content_settings,
    fingerprint_of,
    rules_changed,
    user_rules_file,
)
from gitcorrex.git.state_scan import GIT_ARGS, MAX_PATHSPECS, add_paths, begin_scan, changed_paths
from gitcorrex.git.state_start import StateStart, head_tree_oid
from gitcorrex.git.state_watch import Watcher, open_watcher

__all__ = ["EMPTY_TREE", "EMPTY_TREE_SHA256", "TEMP_INDEX_PREFIX", "StateProbe",
           "WorkspaceState", "compute_state", "empty_tree_oid", "head_tree_oid", "state_key"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on this path
if TYPE_CHECKING:
    from typing import Any

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
EMPTY_TREE_SHA256 = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"


class WorkspaceState:
    """A workspace's key, HEAD's tree (None while HEAD is unborn) and whether they differ.
    (A plain class: `dataclasses` loads `inspect`, ~10 ms of every `git correx state`.)"""

    __slots__ = ("dirty", "head_tree", "state_key")

    def __init__(self, *, state_key: str, head_tree: str | None, dirty: bool) -> None:
        self.state_key = state_key
        self.head_tree = head_tree
        self.dirty = dirty

    def _key(self) -> tuple[str, str | None, bool]:
        return (self.state_key, self.head_tree, self.dirty)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WorkspaceState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"WorkspaceState(state_key={self.state_key!r}, head_tree={self.head_tree!r}, "
                f"dirty={self.dirty!r})")


def empty_tree_oid(object_format: str = "sha1") -> str:
    """The tree with no entries: what an unborn HEAD is compared against."""
    return EMPTY_TREE_SHA256 if object_format == "sha256" else EMPTY_TREE


def compute_state(repo: Repository, start: StateStart | None = None) -> WorkspaceState:
    """Key the workspace and compare it with HEAD; a bare repository raises (exit 2).
    `start`: what `state_start.py` began for it."""
    with StateProbe(repo, start) as probe:
        return probe.measure()


def state_key(repo: Repository) -> str:
    """Just the key, for callers that do not care about HEAD."""
    return compute_state(repo).state_key


class StateProbe:
    """Measure one workspace, once or twice (before and after commands run), on one index.

    A second measurement refreshes the same private index as the first, so git re-hashes
    only what changed in between, and runs no write-tree when `git add -A` changed nothing.
    Whether the index is the worktree's persistent one or a scratch copy, the result is
    the definition's; when a kept index cannot be trusted (settings or ignore rules
    changed) the measurement is redone on an index made again from the user's entries
    (never its stat data: `state_index_seed.py`).
    """

    def __init__(self, repo: Repository, start: StateStart | None = None, *,
                 index_written_here: bool = False) -> None:
        """`start`: what `state_start.py` began for this repository (its claim and scan
        are adopted, and closed with this probe). `index_written_here`: the worktree's
        index was written by this process's own git (a fresh `git worktree add`), so its
        stat data may seed the private index (`state_index_seed.py`)."""
        root, common = repo.root, repo.common_dir
        self._root = root
        self._begun = start.adopt(repo) if start is not None else None  # state_start.py
        claim = self._begun.take_claim() if self._begun is not None else None
        try:
            self._index: StateIndex = open_state_index(repo, claim,
                                                       index_written_here=index_written_here)
        except BaseException:
            if self._begun is not None:
                self._begun.close()
            raise
        self._trust: Callable[[], dict[str, Any]] | None = None
        self._settings: Callable[[], list[str]] | None = None
        self._pending: Callable[[], WorkspaceState] | None = None
        self._last: tuple[list[int] | None, str] | None = self._index.recorded_tree()
        self._key: str | None = None
        self._base_key = self._index.record["key"] if self._index.record else None
        self._queries = (root, common)
        self._head: Callable[[], str | None] | None = None
        self._watcher: Watcher | None = (open_watcher(repo.git_dir, root, self._index.record)
                                         if self._index.persistent else None)
        if self._begun is not None and (self._watcher or not self._untracked_cache()):
            self._begun.close()  # not the scan this probe runs
            self._begun = None
        self._measured = False  # a second measurement scans everything (state_watch.py)
        self._scanning = threading.Event()  # set once a measurement's scan has started

    @property
    def on_kept_index(self) -> bool:
        """Whether this probe holds the worktree's persistent index (else a scratch copy)."""
        return self._index.persistent

    def begin(self, *, until_scanning: bool = False) -> StateProbe:
        """Start the next measurement on a thread: git scans the work tree while the caller
        loads what it needs (verify's imports and profile take about as long as the scan).

        `until_scanning`: return only once git is scanning (or this measurement needs no
        scan). A caller that goes on to start processes of its own would otherwise hold
        the interpreter's lock for up to its 5 ms switch interval while the scan, the
        longest part of what follows, waits to be started.
        """
        self._scanning = threading.Event()
        self._pending = in_background(self._measure_now, name="correx-state")
        if until_scanning:
            self._scanning.wait()
        return self

    def measure(self) -> WorkspaceState:
        """The workspace's state now (or when `begin` was called); HEAD is read once."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            return pending()
        return self._measure_now()

    def _start_queries(self) -> None:
        """HEAD's tree and the settings (trust, attributes), asked while git scans (first
        time only: a later measurement finds the settings in read_config's cache)."""
        if self._head is not None:
            return
        root, common = self._queries
        begun, self._begun = self._begun, None  # its queries were started with the scan
        head, config = (begun.head, begun.settings) if begun is not None else (None, None)
        settings = (in_background(lambda: content_settings(root), name="correx-settings")
                    if config is None else lambda: content_settings(root, config.wait()))
        if self._index.persistent:
            self._trust = lambda: fingerprint_of(settings(), common)
        self._settings = settings
        self._head = (in_background(lambda: head_tree_oid(root), name="correx-head-tree")
                      if head is None else lambda: head_tree_oid(root, head.wait()))

    def _measure_now(self) -> WorkspaceState:
        self._key = None  # until this measurement succeeds, the index is not recorded
        try:
            key = self._key_now()
        except UnavailableError:
            self._refuse_undeclared()  # a rule outside the tree may be why git failed
            raise
        finally:
            self._scanning.set()
        self._refuse_undeclared()
        self._index.refuse_hidden()
        self._key = self._base_key = key
        if self._watcher is not None:
            self._watcher.settled()
        if self._head is None:
            raise ValueError("StateProbe.measure before begin")
        head_tree = self._head()
        baseline = head_tree or empty_tree_oid("sha256" if len(key) == 64 else "sha1")
        return WorkspaceState(state_key=key, head_tree=head_tree, dirty=key != baseline)

    def _key_now(self) -> str:
        """The key from the private index, rebuilt when it might differ from a copy's.
        With a watcher, its answer (taken before git looks) says which paths to refresh."""
        watched: list[bytes] | None = None
        if self._watcher is not None:
            answer = self._watcher.changes(trusted_index=self._index.record is not None,
                                           full=self._measured)
            self._measured = True
            if answer.rebuild:
                self._index.rebuild()
                self._last = None
            watched = answer.paths
        try:
            key = self._refresh(watched)
        except GitCommandError:  # write-tree: an object the kept index names was pruned
            if not self._index.persistent:
                raise
            key = ""
        if not key or self._must_rebuild(key):
            self._index.rebuild()
            self._last = None
            key = self._refresh()
        return key

    def _refresh(self, watched: list[bytes] | None = None) -> str:
        """Bring the index up to the work tree, then `write-tree` unless its entries are
        those the last key was written from. On a kept index that carries git's untracked
        cache, `git status` first says what changed (`state_scan.py`), or a watcher says
        which paths to look at (`state_watch.py`); otherwise, and after a rebuild,
        `git add -A` walks the whole work tree."""
        index = self._index
        env = {"GIT_INDEX_FILE": index.path}
        begun = self._begun.take_scan() if self._begun is not None else None  # state_start.py
        before = begun[0] if begun else file_stamp(index.path)  # the stamp from before it ran
        if self._untracked_cache() and watched is not None:
            self._scanning.set()  # a few paths: no scan of the whole work tree
            self._start_queries()
            self._refresh_watched(watched, env)
            stamp = file_stamp(index.path)
            same = stamp is not None and stamp == self._last_stamp()
        elif self._untracked_cache():
            scanning = begun[1] if begun else begin_scan(self._root, env, index.keep_fds)
            self._scanning.set()
            self._start_queries()  # the scan is the critical path: it starts first
            paths = scanning()
            if paths is None:
                _add_all(self._root, env, index.keep_fds, untracked_cache=True)
            elif paths:
                self._add(paths, env)
            same = paths == [] and before is not None and before == self._last_stamp()
        else:
            adding = in_background(lambda: _add_all(self._root, env, index.keep_fds,
                                                    untracked_cache=False))
            self._scanning.set()
            self._start_queries()
            adding()
            stamp = file_stamp(index.path)
            same = stamp is not None and stamp == self._last_stamp()
        if index.persistent and index.tracked_ignored:
            back = to_add_back(self._root, index.path, index.keep_fds, index.tracked_ignored)
            if back:
                add_back(self._root, env, index.keep_fds, back)
                same = False
        if same and self._last is not None:
            key = self._last[1]
        else:
            out = run_git([*GIT_ARGS, "write-tree"], cwd=self._root, env=env,
                          keep_fds=index.keep_fds).stdout
            key = out.decode("ascii").strip()
        self._last = (file_stamp(index.path), key)
        return key

    def _refresh_watched(self, watched: list[bytes], env: dict[str, str]) -> None:
        """Refresh the paths a watcher reported (`state_watch.py`): `git add -A` of just
        those; when git refuses (a path it ignores, or one that neither exists nor has an
        entry), `git status` limited to them says which to add. Refreshing any subset of
        paths is a step `git add -A` would take, so a refused attempt leaves nothing wrong."""
        if not watched:
            return
        keep_fds = self._index.keep_fds
        try:
            add_paths(self._root, env, keep_fds, watched)
            return
        except GitCommandError:
            pass
        paths = changed_paths(self._root, env, keep_fds, limit=watched)
        if paths is None:
            _add_all(self._root, env, keep_fds, untracked_cache=True)
        elif paths:
            self._add(paths, env)

    def _refuse_undeclared(self) -> None:
        """Raise when a rule outside the tree changes the bytes git stores (asked on every
        measurement: the commands between two may write one)."""
        root, common = self._queries
        settings = self._settings() if self._settings else content_settings(root)
        self._settings = None
        rule = undeclared_rule(root, common, settings,
                               user_rules_file(settings, "core.attributesfile", "attributes"))
        if rule is not None:
            raise undeclared_error(rule, root, {"GIT_INDEX_FILE": self._index.path},
                                   self._index.keep_fds)

    def _last_stamp(self) -> list[int] | None:
        return self._last[0] if self._last is not None else None

    def _add(self, paths: list[bytes], env: dict[str, str]) -> None:
        """`git add -A` limited to `paths` when they are few, else the whole work tree
        (also when a path vanished since git status listed it: git refuses that pathspec)."""
        keep_fds = self._index.keep_fds
        if len(paths) <= MAX_PATHSPECS:
            try:
                add_paths(self._root, env, keep_fds, paths)
                return
            except GitCommandError:
                pass
        _add_all(self._root, env, keep_fds, untracked_cache=True)

    def _untracked_cache(self) -> bool:
        return has_untracked_cache(self._index.record)

    def _must_rebuild(self, key: str) -> bool:
        """Whether a reused persistent index might have given another key than a copy."""
        record = self._index.record
        if record is None or self._base_key is None:
            return False
        if self._trust is not None and self._trust() != record.get("trust"):
            return True
        return rules_changed(self._root, self._base_key, key)

    def close(self) -> None:
        """Wait for a measurement still running, then record (persistent index) or delete
        (scratch copy) the private index, and drop its lock."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            with suppress(Exception):
                pending()
        if self._begun is not None:
            self._begun.close()
        for waiting in (self._head, self._settings):
            if waiting is not None:
                with suppress(Exception):
                    waiting()  # its git process must not outlive the probe
        trust = None
        if self._trust is not None and self._key is not None:
            with suppress(Exception):
                trust = self._trust()
        watch = self._watcher.pending if self._watcher is not None else None
        self._index.close(key=self._key, trust=trust, watch=watch)

    def __enter__(self) -> StateProbe:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _add_all(root: Path, env: dict[str, str], keep_fds: tuple[int, ...], *,
             untracked_cache: bool) -> None:
    """`git add -A` on the private index; its failure must not suggest running it by hand,
    which would stage everything in the user's own index."""
    args = ["-c", "core.untrackedCache=true"] if untracked_cache else []
    try:
        run_git([*GIT_ARGS, *args, "add", "-A"], cwd=root, env=env, keep_fds=keep_fds)
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


_WRITE_FAILED = ("insufficient permission", "out of diskspace", "write error",
                 "unable to write", "unable to create")


def _store_fault(root: Path, exc: GitCommandError) -> EnvironmentFaultError | None:
    """A read-only, inaccessible or full object store behind git's failure, naming it."""
    said = exc.stderr.lower()
    if environmental_error(exc) is None and not any(words in said for words in _WRITE_FAILED):
        return None
    from gitcorrex.git.write_faults import object_store_fault

    found = run_git(["rev-parse", "--path-format=absolute", "--git-path", "objects"],
                    cwd=root, check=False).stdout
    objects = Path(decode_path(found).strip() or root / ".git" / "objects")
    return object_store_fault(objects) or environmental_error(exc)

