"""The private index a state key is computed on: persistent per worktree, or a scratch copy.

Keying a workspace is `git add -A && git write-tree` on a private index. On a copy of the
user's index, git re-hashes every file that differs from the user's index on every run and
rewrites the whole index twice; on an index **kept between runs** it re-hashes only what
changed since the last run and reuses the cache-tree of unchanged directories (50,000
files: 1.55 times `git status` for a copy, ~1.1 for a kept index). So each worktree keeps one,
`<git dir>/correx/state-index`, beside a small JSON record (`state-index.json`) saying what
it can be trusted for (`state_index_trust.py`).

Concurrency and crashes:
- One run at a time uses the persistent index, holding an exclusive `flock` on
  `state-index.owner`, taken without waiting. A run that finds it held keys the workspace
  on a scratch index made from the user's instead (its entries, stat data from a copy of
  the kept index: `state_index_seed.py`; slower, never wrong) — it
  never waits and never sees another run's half-done refresh. The lock's descriptor is
  handed to the git processes that write the index, so it is held until the last of them
  exits even if this process is killed; the kernel drops it when they are all gone, so a
  killed run never leaves a stale lock.
- Each git write is git's own: `state-index.lock`, then an atomic rename. Under our lock, a
  leftover `state-index.lock` is a killed git's, and is removed.
- The record is deleted before the index is first touched and written back (atomically)
  only after a key was computed: a run killed in between leaves no record, and the next run
  rebuilds from the user's index.
- Scratch copies are named for their owning process (`owned_files.py`); those of killed
  runs are removed by the next run.

The persistent index is used only for the worktree's own index. Under a `GIT_INDEX_FILE`
that points elsewhere (a hook during `git commit -a`, a temporary index) the key is taken
on a scratch copy of that index, as before.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from gitcorrex.git import owned_files
from gitcorrex.git.background import in_background
from gitcorrex.git.repository import Repository
from gitcorrex.git.state_index_bits import TEMP_INDEX_PREFIX, refuse_present_skipped
from gitcorrex.git.state_index_claim import (
    HOME,
    INDEX_NAME,
    KeptClaim,
    claim_kept_index,
    fcntl,
    file_stamp,
    pruning_stamp,
    record_path,
)
from gitcorrex.git.state_index_forgotten import tracked_ignored
from gitcorrex.git.state_index_seed import seed_index
from gitcorrex.git.state_index_trust import object_store_stamp

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on this path
if TYPE_CHECKING:
    from typing import Any

__all__ = ["HOME", "INDEX_NAME", "StateIndex", "open_state_index"]


class StateIndex:
    """An index file this run may refresh, and what is known about its contents.

    `record` is the trusted record of a reused persistent index (None after a rebuild or
    for a scratch copy): its `key` is what the index gave last time and `trust` what the
    current settings must equal. `skipped` are the probes of its skip-worktree entries
    (`state_index_bits.py`). (Plain classes on this path: `dataclasses` loads `inspect`,
    ~10 ms of every `git correx state`.)"""

    def __init__(self, path: str, source: Path, persistent: bool, *, root: Path,
                 git_dir: Path, record: dict[str, Any] | None = None,
                 user_stamp: list[int] | None = None, lock_fd: int | None = None,
                 keep_fds: tuple[int, ...] = (), objects_of: Path | None = None,
                 index_written_here: bool = False) -> None:
        self.path = path
        self.root = root
        self.git_dir = git_dir
        self.source = source
        self.persistent = persistent
        self.record = record
        self.skipped: list[str] = list(record.get("skipped") or []) if record else []
        self.tracked_ignored: list[str] = (list(record.get("tracked_ignored") or [])
                                           if record else [])
        self.user_stamp = user_stamp
        self.lock_fd = lock_fd
        self.keep_fds = keep_fds
        self.objects_of = objects_of
        self.objects_checked: list[list[int]] | None = None  # recorded_tree's stamp
        self.index_written_here = index_written_here  # the user's index is our own git's

    def recorded_tree(self) -> tuple[list[int], str] | None:
        """The index stamp and key of the last run, when its tree is sure to be complete
        still (no object removed since): `git write-tree` would give that key again."""
        record = self.record
        if record is None or self.objects_of is None or record.get("objects") is None:
            return None
        stamp = object_store_stamp(self.objects_of)
        if record["objects"] != stamp:
            return None
        self.objects_checked = stamp
        return record["index"], record["key"]

    def rebuild(self) -> None:
        """Start over from the user's index: its entries, without the bits that could hide
        an edit (`state_index_bits.py`) and without its stat data, which whoever wrote it
        chose (`state_index_seed.py`): an entry keeps stat data only where our kept index
        holds the same one. A kept index is written in index format 4 (path prefixes
        compressed: 3.5 instead of 4.4 MB on 50,000 files), which every later scan reads
        and writes for ~8 ms less CPU."""
        self.record = self.objects_checked = None
        listing = (in_background(lambda: tracked_ignored(self.root, str(self.source), ()),
                                 name="correx-tracked-ignored") if self.persistent else None)
        if self.index_written_here:
            base = str(self.source)
        else:
            base = self.path if self.persistent else os.path.join(self.git_dir, HOME,
                                                                  INDEX_NAME)
        self.skipped = seed_index(self.root, self.path, self.source, self.keep_fds,
                                  base=base, version=4 if self.persistent else None)
        self.tracked_ignored = listing() if listing is not None else []

    def refuse_hidden(self) -> None:
        """Raise when a skip-worktree path exists with other bytes than its entry (a few
        lstat()s; nothing at all without skip-worktree entries)."""
        if self.skipped:
            refuse_present_skipped(self.root, self.path, self.keep_fds, self.skipped,
                                   self.git_dir)

    def close(self, *, key: str | None, trust: dict[str, Any] | None,
              watch: dict[str, Any] | None = None) -> None:
        """Give the index up: record what it now holds (persistent, after a key) or delete
        it (scratch copy); then drop the lock. `watch`: the watcher's clock this index is
        up to date with (`state_watch.py`), valid only with this record."""
        try:
            if not self.persistent:
                owned_files.remove(self.path)
            elif key is not None and trust is not None:
                _write_record(Path(self.path), {
                    "trust": trust, "user_index": self.user_stamp, "index": file_stamp(self.path),
                    "key": key, "skipped": self.skipped,
                    "tracked_ignored": self.tracked_ignored,
                    "objects": self._objects_stamp(key),
                    "pruning": pruning_stamp(self.objects_of) if self.objects_of else None,
                    "watch": watch,
                })
        finally:
            if self.lock_fd is not None:
                os.close(self.lock_fd)
                self.lock_fd = None


    def _objects_stamp(self, key: str) -> list[list[int]] | None:
        """The object store's stamp to record with `key`. When `key` is the recorded one and
        its tree was found complete (`recorded_tree`), the stamp taken then still holds: no
        object was removed before it, and a change since then only makes the next run
        check again. Otherwise a stamp taken now, after this run's `write-tree` (~1 ms:
        one stat per object directory)."""
        if self.objects_checked is not None and self.record and key == self.record["key"]:
            return self.objects_checked
        return object_store_stamp(self.objects_of) if self.objects_of else None


def open_state_index(repo: Repository, claim: KeptClaim | None = None, *,
                     index_written_here: bool = False) -> StateIndex:
    """The persistent index when it is free, else a scratch copy of the user's index.
    `claim`: the kept index this run claimed already (state_start.py), for this repository.
    `index_written_here`: the user's index is our own git's (StateProbe), its stat data
    as good as the kept index's."""
    owned_files.sweep_dead(repo.git_dir, TEMP_INDEX_PREFIX)
    source = repo.index_file
    if claim is None:
        if source != repo.git_dir / "index" or fcntl is None:
            return _scratch_copy(repo, source, index_written_here)
        claim = claim_kept_index(repo.git_dir, repo.common_dir, source)
        if claim is None:
            return _scratch_copy(repo, source, index_written_here)
    try:
        state = StateIndex(claim.index, source, persistent=True, record=claim.record,
                           user_stamp=claim.user_stamp, lock_fd=claim.lock_fd,
                           keep_fds=(claim.lock_fd,), objects_of=repo.common_dir,
                           root=repo.root, git_dir=repo.git_dir,
                           index_written_here=index_written_here)
        if claim.record is None:
            state.rebuild()
    except BaseException:
        os.close(claim.lock_fd)
        raise
    return state


def _scratch_copy(repo: Repository, source: Path, index_written_here: bool) -> StateIndex:
    temp = owned_files.reserve(repo.git_dir, TEMP_INDEX_PREFIX)
    state = StateIndex(temp, source, persistent=False, root=repo.root, git_dir=repo.git_dir,
                       index_written_here=index_written_here)
    try:
        state.rebuild()
    except BaseException:
        owned_files.remove(temp)
        raise
    return state


def _write_record(index: Path, record: dict[str, Any]) -> None:
    """Write then rename, so a reader never sees half a record."""
    target = Path(record_path(index))
    temp = target.with_name(target.name + ".tmp")
    temp.write_text(json.dumps(record, sort_keys=True), encoding="utf-8")
    os.replace(temp, target)
