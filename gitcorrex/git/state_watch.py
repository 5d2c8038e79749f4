"""Which paths a kept state index must refresh, asked of watchman (`git correx watch`).

Without a watcher, refreshing the kept index costs a `git status` that lstat()s every file
(`state_scan.py`). With one (`watch.json` beside the index says so, written by `watch
start`), the refresh asks watchman what changed since the clock recorded with the index
and has git look at those paths only. The clock lives in the index's own record
(`state-index.json`), written only after a key was computed on that index: it is valid
for that index and no other, and anything that voids the record (the user's index, the
settings, a `git gc`, a crash) voids the clock with it.

Why a clock makes the path set complete: a measurement takes the clock *before* git
looks at the work tree (watchman's query syncs on a cookie file first, so every change
made before it is counted). A path that changed after the previous clock is in this
answer; one that did not is as the previous refresh (or the full scan that started the
chain) left it. The answer's clock becomes the next one.

Anything else is doubt, and doubt means the full scan, with a new clock taken first:
- no clock, a clock that does not parse, or one from another watchman (a restart, a
  re-created watch: `is_fresh_instance`, or another server pid than the peer's);
- a clock ahead of watchman's own (edited by hand);
- a new or changed `warning` (watchman recrawled after losing events, e.g. an inotify
  overflow);
- watchman unreachable, slow (10 s), or not the recorded binary of this user
  (`watchman.py`);
- more paths than a limited `git status` beats the full one on (`MAX_WATCH_PATHS`);
- a `.gitignore` or `.gitattributes` among the paths: a new rule changes files nobody
  touched, so the index is also rebuilt from the user's;
- settings, exclude files or the user's index changed: the kept index is rebuilt
  (`state_index_trust.py`), and with it the clock.

What inotify never reports (a file changed through a hard link from outside the work
tree, or through `mmap`) a watcher cannot see. So within one probe only the *first*
measurement takes watchman's paths; every later one (`verify` after its commands, a gate,
a step's settlement) scans the whole work tree: a change hidden from the first makes the
two keys differ, and the run never counts as a pass (the workspace changed under it).

Gitlinks: a submodule's HEAD lives in its git directory, often outside the work tree
(`.git/modules/…`), where no watch sees it. Every directory holding a `.git` entry (found
at the start of a chain, and any reported since) is therefore refreshed on every
measurement, whatever watchman says.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from gitcorrex.git.state_index_claim import WATCH_FILE

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on this path
if TYPE_CHECKING:
    from typing import Any

    from gitcorrex.git.watchman import Connection

MAX_WATCH_PATHS = 64  # a limited `git status` costs ~0.5 ms a path on 50,000 files
RULE_NAMES = (b".gitignore", b".gitattributes")
SYNC_MS = 10_000


class WatchAnswer:
    """What a measurement refreshes: `paths` (None: the whole work tree), whether the
    kept index must first be rebuilt (`rebuild`), and why not the fast path (`reason`)."""

    __slots__ = ("paths", "reason", "rebuild")

    def __init__(self, paths: list[bytes] | None, reason: str | None = None,
                 rebuild: bool = False) -> None:
        self.paths = paths
        self.reason = reason
        self.rebuild = rebuild


class Watcher:
    """The watcher of one worktree, for one probe: asks watchman once per measurement and
    carries the clock (and gitlinks) forward to the next measurement and the record."""

    def __init__(self, config: dict[str, Any], previous: dict[str, Any] | None) -> None:
        self._config = config
        self._previous = previous if isinstance(previous, dict) else None
        self.pending: dict[str, Any] | None = None  # what the record gets if a key follows

    def changes(self, *, trusted_index: bool, full: bool = False) -> WatchAnswer:
        """The paths to refresh now; a full scan (None) on any doubt, and when `full`
        (the clock chain still moves on). The clock this answer rests on is kept in
        `pending`; `None` there means: record no clock."""
        from gitcorrex.git.watchman import Connection, WatchmanError  # `socket`: only here

        self.pending = None
        try:
            with Connection(self._config["sockname"], self._config["binary"]) as conn:
                answer = self._ask(conn, trusted_index, full)
            if full and answer.paths is not None:
                answer = WatchAnswer(None, "a second measurement scans everything")
        except (WatchmanError, KeyError, TypeError, ValueError, AttributeError) as exc:
            answer = WatchAnswer(None, f"watchman unavailable: {exc}")
        self.pending = self.pending or {}  # no clock: the next key starts a chain
        self.pending["answer"] = (answer.reason if answer.paths is None  # `watch status`
                                  else f"{len(answer.paths)} paths to refresh")
        return answer

    def settled(self) -> None:
        """The measurement gave a key: its clock is the next measurement's previous."""
        if self.pending is not None:
            self._previous = self.pending

    def _ask(self, conn: Connection, trusted_index: bool, full: bool = False) -> WatchAnswer:
        """What changed since the previous clock. Before a full scan (`full`) watchman is
        not made to sync first: its paths are not used, and a clock taken before it has
        seen every event is only earlier than the truth, so the next answer reports more,
        never less (a sync costs a cookie file and watchman's turn on a busy machine)."""
        if self._config.get("misplaced"):
            return WatchAnswer(None, "watch.json names another directory (the repository "
                                     "moved?): run `git correx watch start` again")
        previous = self._previous
        if not trusted_index or previous is None or "clock" not in previous:
            return self._start_chain(conn, "no clock for this index")
        query = {"since": previous["clock"], "fields": ["name"],
                 "empty_on_fresh_instance": True, "sync_timeout": 0 if full else SYNC_MS,
                 **self._relative()}
        from gitcorrex.git.watchman import WatchmanError

        try:
            answer = conn.request(["query", self._config["root"], query])
        except WatchmanError as exc:  # e.g. a restarted watchman lost the watch
            return self._start_chain(conn, str(exc))
        doubt = _doubt(previous, answer, conn.server_pid)
        if doubt is not None:
            return self._start_chain(conn, doubt)
        gitlinks = set(previous["gitlinks"])
        paths, rules = _paths(answer.get("files") or [], gitlinks)
        self.pending = {"clock": _text(answer["clock"]), "gitlinks": sorted(gitlinks),
                        "warning": _text(answer.get("warning"))}
        if rules:
            return WatchAnswer(None, "an ignore or attributes file changed", rebuild=True)
        refresh = _collapse(paths | {link.encode("utf-8", "surrogateescape")
                                     for link in gitlinks})
        if len(refresh) > MAX_WATCH_PATHS:
            return WatchAnswer(None, f"{len(refresh)} paths changed (more than "
                                     f"{MAX_WATCH_PATHS})")
        return WatchAnswer(refresh)

    def _start_chain(self, conn: Connection, reason: str) -> WatchAnswer:
        """A clock taken now (after a sync) and every directory holding `.git`: the base
        for the full scan that follows. (Watching again first: a restarted watchman
        may have lost the watch; on a live one this changes nothing.)"""
        conn.request(["watch-project", self._config["root"]])
        query = {"expression": ["allof", ["name", ".git"], "exists"], "fields": ["name"],
                 "sync_timeout": SYNC_MS, **self._relative()}
        answer = conn.request(["query", self._config["root"], query])
        if _clock_pid(_text(answer.get("clock"))) != conn.server_pid:
            return WatchAnswer(None, "watchman answered with another server's clock")
        gitlinks: set[str] = set()
        _paths([os.path.join(name, b"") for name in answer.get("files") or []
                if isinstance(name, bytes)], gitlinks)
        self.pending = {"clock": _text(answer["clock"]), "gitlinks": sorted(gitlinks),
                        "warning": _text(answer.get("warning"))}
        return WatchAnswer(None, reason)

    def _relative(self) -> dict[str, str]:
        relative = self._config.get("relative_path")
        return {"relative_root": relative} if relative else {}


def open_watcher(git_dir: Path, root: Path, record: dict[str, Any] | None) -> Watcher | None:
    """The worktree's watcher when `watch start` configured one (else None: one failed
    open, nothing more), carrying the clock from the kept index's record. A watch of
    another directory than `root` (the repository was moved, and something else may now
    live where it was) is never asked."""
    config = read_watch_config(git_dir)
    if config is None:
        return None
    watched = os.path.join(str(config.get("root")), str(config.get("relative_path") or ""))
    if os.path.realpath(watched) != os.path.realpath(root):
        config = {**config, "misplaced": True}
    previous = record.get("watch") if record else None
    return Watcher(config, previous)


def read_watch_config(git_dir: Path) -> dict[str, Any] | None:
    """`<git dir>/correx/watch.json`, or None when absent or unreadable."""
    try:
        with open(git_dir / "correx" / WATCH_FILE, encoding="utf-8") as handle:
            config = json.load(handle)
    except (OSError, ValueError):
        return None
    return config if isinstance(config, dict) else None


def _doubt(previous: dict[str, Any], answer: dict[str, Any], server_pid: int) -> str | None:
    """Why this `since` answer cannot be trusted to list every change; None when it can."""
    old, new = _clock_parts(previous.get("clock")), _clock_parts(_text(answer.get("clock")))
    if old is None or new is None:
        return "the recorded clock is not a watchman clock"
    fresh = answer.get("is_fresh_instance") is not False
    if fresh or old[:3] != new[:3] or new[1] != server_pid:
        return "a fresh instance: watchman restarted or the watch was re-created"
    if old[3] > new[3]:
        return "the recorded clock is ahead of watchman's"
    if _text(answer.get("warning")) != previous.get("warning"):
        return "watchman recrawled (it may have lost events)"
    if not isinstance(previous.get("gitlinks"), list):
        return "the recorded clock has no gitlinks"
    return None


def _paths(names: list[Any], gitlinks: set[str]) -> tuple[set[bytes], bool]:
    """The work-tree paths behind watchman's names, and whether a rule file is among
    them. Our own `.git` is dropped; a path inside a nested `.git` stands for the
    directory holding it, which is a gitlink (added to `gitlinks`)."""
    paths: set[bytes] = set()
    rules = False
    for name in names:
        if not isinstance(name, bytes) or not name:
            continue
        parts = name.split(b"/")
        if b".git" in parts:
            holder = b"/".join(parts[:parts.index(b".git")])
            if holder:
                gitlinks.add(holder.decode("utf-8", "surrogateescape"))
                paths.add(holder)
            continue
        rules = rules or parts[-1] in RULE_NAMES
        paths.add(name)
    return paths, rules


def _collapse(paths: set[bytes]) -> list[bytes]:
    """Drop every path under another listed path (a literal pathspec covers its subtree)."""
    def covered(path: bytes) -> bool:
        parts = path.split(b"/")
        return any(b"/".join(parts[:end]) in paths for end in range(1, len(parts)))

    return sorted(path for path in paths if not covered(path))


def _clock_parts(clock: object) -> tuple[str, int, str, int] | None:
    """`c:<start>:<pid>:<root number>:<tick>` as its parts; None when it is not one."""
    if not isinstance(clock, str):
        return None
    parts = clock.split(":")
    if len(parts) != 5 or parts[0] != "c":
        return None
    try:
        return parts[1], int(parts[2]), parts[3], int(parts[4])
    except ValueError:
        return None


def _clock_pid(clock: str | None) -> int | None:
    parts = _clock_parts(clock)
    return parts[1] if parts else None


def _text(value: object) -> str | None:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else None
