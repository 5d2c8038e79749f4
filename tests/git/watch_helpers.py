"""A private watchman server per test (the real binary, its own socket), and what a key's
watcher answered.

Tests never touch the machine's own watchman: each `Watchman` runs `watchman
--foreground` on a socket in a short temporary directory (unix socket paths are limited to
~100 bytes), and `watch start` records that socket through `$WATCHMAN_SOCK`. The server is
this test's child process, so killing it (as an agent might) ends only what the test
started.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

WATCHMAN = shutil.which("watchman")
needs_watchman = pytest.mark.skipif(
    WATCHMAN is None, reason="watchman is not installed (Debian: apt-get install watchman)")


class Watchman:
    """One private watchman server; `restart` gives a fresh instance on the same socket."""

    def __init__(self) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="wm-", dir="/tmp"))
        self.sock = str(self.home / "sock")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert WATCHMAN is not None
        self.proc = subprocess.Popen(
            [WATCHMAN, "--foreground", f"--sockname={self.sock}",
             f"--logfile={self.home / 'log'}", f"--pidfile={self.home / 'pid'}",
             f"--statefile={self.home / 'state'}", "--no-save-state"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not self._answers():
            if time.monotonic() > deadline:
                raise AssertionError("the private watchman server did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL, as an agent would: no clean shutdown."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None
        Path(self.sock).unlink(missing_ok=True)

    def restart(self) -> None:
        self.kill()
        self.start()

    def command(self, *args: str) -> dict[str, object]:
        assert WATCHMAN is not None
        done = subprocess.run([WATCHMAN, f"--sockname={self.sock}", "--no-pretty", *args],
                              capture_output=True, check=True, timeout=60)
        return json.loads(done.stdout)

    def request(self, command: list[object]) -> dict[str, object]:
        """One request in watchman's JSON form (for options the command line lacks)."""
        assert WATCHMAN is not None
        done = subprocess.run([WATCHMAN, f"--sockname={self.sock}", "--no-pretty", "-j"],
                              input=json.dumps(command).encode(), capture_output=True,
                              check=True, timeout=60)
        return json.loads(done.stdout)

    def _answers(self) -> bool:
        try:
            self.command("version")
        except (subprocess.CalledProcessError, ValueError):
            return False
        return True

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.home, ignore_errors=True)


def watch_record(root: Path) -> dict[str, object]:
    """The watcher's part of the kept index's record ({} when there is none)."""
    try:
        record = json.loads((root / ".git" / "correx" / "state-index.json").read_text())
    except FileNotFoundError:
        return {}
    return record.get("watch") or {}


def last_answer(root: Path) -> str:
    """What the watcher answered for the last key: 'N paths to refresh' or a reason."""
    return str(watch_record(root).get("answer"))


def set_recorded_clock(root: Path, clock: str) -> None:
    """Edit the clock in the record by hand, as an agent could."""
    path = root / ".git" / "correx" / "state-index.json"
    record = json.loads(path.read_text())
    record["watch"]["clock"] = clock
    path.write_text(json.dumps(record))
    os.utime(path)
