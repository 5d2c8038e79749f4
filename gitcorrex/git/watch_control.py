"""`git correx watch start|stop|status`: a watchman watch for this worktree's state keys.

`start` asks watchman (the binary on PATH) to watch the project holding the work tree and
writes `<git dir>/correx/watch.json`: the socket, the binary (the only program whose
answers are believed: `watchman.py`), the watched root and the worktree's path under it.
From then on every state key refreshes only what watchman reports (`state_watch.py`);
the first one after `start` is a full scan that begins the clock chain. `stop` removes
the file (and the watch, unless it was there before `start`). Without the file nothing
here runs: keys are computed as they always were.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from gitcorrex.errors import UnavailableError
from gitcorrex.git.repository import Repository
from gitcorrex.git.state_index import HOME, INDEX_NAME
from gitcorrex.git.state_watch import WATCH_FILE, read_watch_config
from gitcorrex.git.watchman import Connection, WatchmanError

INSTALL = ("watchman is not installed: install it (Debian/Ubuntu `apt-get install watchman`, "
           "macOS `brew install watchman`), then run `git correx watch start` again")


@dataclass(frozen=True)
class WatchStatus:
    """Whether keys in this worktree use a watcher, and whether it can answer now.

    `on`: `watch start` configured one; `reachable`: watchman answered as the configured
    binary; `clock`: the clock the kept index is up to date with (None: the next key
    scans the whole work tree); `last`: what the watcher answered for the last key (how
    many paths it refreshed, or why it scanned everything); `problem`: why keys fall
    back to the full scan now."""

    on: bool
    installed: str | None
    reachable: bool
    root: str | None
    clock: str | None
    last: str | None
    problem: str | None

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def describe(self) -> str:
        if not self.on:
            return "watcher: off (`git correx watch start` to refresh keys from watchman)"
        if not self.reachable:
            return f"watcher: on, but keys scan the whole work tree: {self.problem}"
        chain = (f"clock {self.clock}; last key: {self.last}" if self.clock
                 else "the next key scans once")
        return f"watcher: on, watchman watching {self.root} ({chain})"


def start_watch(repo: Repository) -> WatchStatus:
    """Watch this worktree and record the watcher; exit 3 when watchman is missing."""
    binary = shutil.which("watchman")
    if binary is None:
        raise UnavailableError(INSTALL)
    sockname = _sockname(binary)
    try:
        with Connection(sockname, binary) as conn:
            listed = conn.request(["watch-list"]).get("roots") or []
            answer = conn.request(["watch-project", str(repo.root)])
    except WatchmanError as exc:
        raise UnavailableError(f"cannot start watching: {exc}",
                               hint="check `watchman watch-project .` by hand") from exc
    root = os.fsdecode(answer.get("watch") or b"")
    relative = answer.get("relative_path")
    earlier = read_watch_config(repo.git_dir)  # a second `start` keeps who made the watch
    preexisting = (bool(earlier.get("preexisting")) if earlier and earlier.get("root") == root
                   else root.encode("utf-8", "surrogateescape") in listed)
    config: dict[str, object] = {
              "binary": os.path.realpath(binary), "sockname": sockname, "root": root,
              "relative_path": os.fsdecode(relative) if relative else None,
              "preexisting": preexisting}
    _write_config(repo.git_dir, config)
    return watch_status(repo)


def stop_watch(repo: Repository) -> WatchStatus:
    """Forget the watcher (and end the watch when `start` created it); idempotent."""
    config = read_watch_config(repo.git_dir)
    (repo.git_dir / HOME / WATCH_FILE).unlink(missing_ok=True)
    if config is not None and not config.get("preexisting"):
        try:
            with Connection(config["sockname"], config["binary"]) as conn:
                conn.request(["watch-del", config["root"]])
        except (WatchmanError, KeyError, TypeError):
            pass  # watchman gone already: nothing to end
    return watch_status(repo)


def watch_status(repo: Repository) -> WatchStatus:
    """The watcher as configured and as watchman answers now (one clock query)."""
    installed = shutil.which("watchman")
    config = read_watch_config(repo.git_dir)
    if config is None:
        return WatchStatus(False, installed, False, None, None, None, None)
    clock, last = _recorded_clock(repo.git_dir)
    try:
        with Connection(config["sockname"], config["binary"]) as conn:
            conn.request(["clock", config["root"]])
    except (WatchmanError, KeyError, TypeError) as exc:
        return WatchStatus(True, installed, False, config.get("root"), clock, last, str(exc))
    return WatchStatus(True, installed, True, config.get("root"), clock, last, None)


def _sockname(binary: str) -> str:
    """Where watchman listens (it starts its server if none runs): `$WATCHMAN_SOCK` when
    set (watchman's own variable), asked once here; later keys use the recorded one."""
    chosen = os.environ.get("WATCHMAN_SOCK")
    args = [f"--sockname={chosen}"] if chosen else []
    try:
        done = subprocess.run([binary, *args, "--no-pretty", "get-sockname"], capture_output=True,
                              timeout=60, check=False, stdin=subprocess.DEVNULL)
        sockname = json.loads(done.stdout).get("sockname")
    except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
        raise UnavailableError(f"watchman did not start: {exc}") from exc
    if not isinstance(sockname, str):
        said = done.stderr.decode("utf-8", "replace").strip()
        raise UnavailableError(f"watchman did not start: {said or 'no socket'}")
    return sockname


def _recorded_clock(git_dir: Path) -> tuple[str | None, str | None]:
    """The clock the kept index's record holds, and the watcher's last answer."""
    try:
        record = json.loads((git_dir / HOME / (INDEX_NAME + ".json")).read_text("utf-8"))
        return str(record["watch"]["clock"]), str(record["watch"].get("answer"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None, None


def _write_config(git_dir: Path, config: dict[str, object]) -> None:
    home = git_dir / HOME
    home.mkdir(exist_ok=True)
    temp = home / (WATCH_FILE + ".tmp")
    temp.write_text(json.dumps(config, sort_keys=True), encoding="utf-8")
    os.replace(temp, home / WATCH_FILE)
