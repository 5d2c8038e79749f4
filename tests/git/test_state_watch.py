"""`git correx watch`: keys refreshed from watchman's answers equal the definition's, and
every doubt (watchman killed, restarted, recrawled, a hand-edited clock, a fake server, a
changed rule, a submodule moved where no watch sees) falls back to the full scan."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest

from gitcorrex.git.repository import discover
from gitcorrex.git.state import StateProbe, compute_state
from gitcorrex.git.watchman import encode_pdu
from tests.cli.test_startup import run_importing
from tests.conftest import git, run_correx, write
from tests.git.state_helpers import reference_key
from tests.git.watch_helpers import Watchman, last_answer, set_recorded_clock, watch_record
from tests.verify.conftest import write_profile


@pytest.fixture
def watched(repo: Path, watchman: Watchman) -> Iterator[Path]:
    """`repo` with the watcher started and one key computed (the chain's full scan)."""
    result = run_correx(repo, "watch", "start")
    assert result.code == 0, result
    assert compute_state(discover(repo)).state_key == reference_key(repo)
    yield repo
    run_correx(repo, "watch", "stop")


def key_of(root: Path) -> str:
    return compute_state(discover(root)).state_key


def test_watch_start_without_watchman_says_how_to_install(repo: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(str(subprocess.check_output(["which", "git"]).decode().strip()),
               bin_dir / "git")
    result = run_correx(repo, "watch", "start", env={"PATH": str(bin_dir)})
    assert result.code == 3, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "apt-get install watchman" in lines[0], result
    assert run_correx(repo, "state").code == 0


def test_a_key_without_a_watcher_loads_no_watchman_client(repo: Path) -> None:
    """Without `watch start` the watcher costs one failed open: no client, no socket."""
    code, imported, err = run_importing(repo, "state")
    assert code == 0, err
    assert "gitcorrex.git.state_watch" in imported
    assert not {"gitcorrex.git.watchman", "socket"} & imported


def test_watched_key_refreshes_only_the_reported_paths(watched: Path) -> None:
    write(watched, "README.md", "edited\n")
    write(watched, "new/file.txt", "new\n")
    assert key_of(watched) == reference_key(watched)
    assert last_answer(watched) == "2 paths to refresh"
    assert key_of(watched) == reference_key(watched)
    assert last_answer(watched) == "0 paths to refresh"


def test_watch_status_reports_the_clock_and_last_answer(watched: Path) -> None:
    status = json.loads(run_correx(watched, "watch", "status", "--json").stdout)
    assert status["on"] and status["reachable"] and status["clock"].startswith("c:")
    assert run_correx(watched, "watch", "stop").code == 0
    status = json.loads(run_correx(watched, "watch", "status", "--json").stdout)
    assert not status["on"]


def test_files_written_while_watchman_is_killed_are_keyed(watched: Path,
                                                          watchman: Watchman) -> None:
    watchman.kill()
    write(watched, "while-down.txt", "x\n")
    assert key_of(watched) == reference_key(watched)
    assert "watchman unavailable" in last_answer(watched)
    watchman.start()  # a fresh instance on the same socket: the watch is gone
    write(watched, "after-restart.txt", "y\n")
    assert key_of(watched) == reference_key(watched)


def test_a_restarted_watchman_is_a_fresh_instance(watched: Path, watchman: Watchman) -> None:
    """The new instance's clock is moved past the recorded one, so only its being another
    instance (`is_fresh_instance`, another start and pid) can tell that changes are lost."""
    old_tick = int(str(watch_record(watched)["clock"]).rsplit(":", 1)[1])
    watchman.restart()
    write(watched, "README.md", "changed while the old instance was gone\n")
    watchman.command("watch-project", str(watched))
    tick, deadline = 0, time.monotonic() + 60
    while tick <= old_tick:  # every synced clock query ticks (a cookie file comes and goes)
        answer = watchman.request(["clock", str(watched), {"sync_timeout": 5000}])
        if "clock" not in answer:  # the new instance has not taken the watch yet (load)
            assert time.monotonic() < deadline, answer
            time.sleep(0.1)
            continue
        tick = int(str(answer["clock"]).rsplit(":", 1)[1])
    assert key_of(watched) == reference_key(watched)
    assert "fresh instance" in last_answer(watched)


def test_a_recrawl_scans_the_whole_work_tree(watched: Path, watchman: Watchman) -> None:
    watchman.command("debug-recrawl", str(watched))
    write(watched, "README.md", "after the recrawl\n")
    assert key_of(watched) == reference_key(watched)
    assert "recrawled" in last_answer(watched)
    write(watched, "README.md", "again\n")
    assert key_of(watched) == reference_key(watched)
    assert last_answer(watched) == "1 paths to refresh"


def test_a_clock_edited_ahead_of_watchman_is_not_believed(watched: Path) -> None:
    start, pid, number, _tick = str(watch_record(watched)["clock"]).split(":")[1:]
    write(watched, "README.md", "hidden behind a forged clock\n")
    set_recorded_clock(watched, f"c:{start}:{pid}:{number}:999999999")
    assert key_of(watched) == reference_key(watched)
    assert "ahead" in last_answer(watched)


def test_a_garbled_clock_is_not_believed(watched: Path) -> None:
    write(watched, "README.md", "hidden behind garbage\n")
    set_recorded_clock(watched, "n:named-cursor")
    assert key_of(watched) == reference_key(watched)
    assert not last_answer(watched).endswith("paths to refresh")


def test_an_ignored_rule_file_change_rebuilds_the_index(watched: Path) -> None:
    """The rule file is itself excluded, so no key shows it changed: only the watcher's
    own doubt (a `.gitignore` among the paths) finds the file it stops ignoring."""
    (watched / ".git" / "info" / "exclude").write_text(".gitignore\n")
    write(watched, ".gitignore", "*.log\n")
    write(watched, "kept.log", "ignored for now\n")
    assert key_of(watched) == reference_key(watched)
    write(watched, ".gitignore", "*.tmp\n")
    assert key_of(watched) == reference_key(watched)
    assert "ignore or attributes" in last_answer(watched)


def test_a_submodule_moved_outside_any_watch_is_keyed(watched: Path, make_repo) -> None:
    upstream = make_repo("upstream", {"lib.txt": "v1\n"})
    git(watched, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(upstream),
        "sub")
    git(watched, "commit", "-qm", "add sub")
    assert key_of(watched) == reference_key(watched)
    write(watched / "sub", "lib.txt", "v2\n")
    git(watched / "sub", "commit", "-qam", "v2")  # HEAD moves in .git/modules/sub
    assert key_of(watched) == reference_key(watched)
    write(watched / "sub", "lib.txt", "v3\n")
    git(watched / "sub", "commit", "-qam", "v3")
    assert key_of(watched) == reference_key(watched)
    assert last_answer(watched).endswith("paths to refresh")


def test_many_changed_paths_scan_the_whole_work_tree(watched: Path) -> None:
    for i in range(80):
        write(watched, f"top{i}.txt", f"{i}\n")
    assert key_of(watched) == reference_key(watched)
    assert "more than" in last_answer(watched)


def test_a_fake_server_on_the_recorded_socket_is_not_believed(watched: Path,
                                                              watchman: Watchman) -> None:
    """An agent kills watchman and answers on its socket: 'nothing changed since your
    clock'. The peer is not the recorded watchman binary, so the key scans everything."""
    clock = str(watch_record(watched)["clock"])
    watchman.kill()
    write(watched, "README.md", "edited under a fake watchman\n")
    with fake_watchman(watchman.sock, clock):
        assert key_of(watched) == reference_key(watched)
    assert "the socket's server is" in last_answer(watched)


def test_a_moved_repository_does_not_trust_the_old_watch(watched: Path, tmp_path: Path) -> None:
    """Whatever lives at the old path now, its changes are not this work tree's."""
    moved = tmp_path / "moved"
    watched.rename(moved)
    watched.mkdir()  # another directory where the repository was
    assert key_of(moved) == reference_key(moved)
    write(moved, "README.md", "edited after the move\n")
    assert key_of(moved) == reference_key(moved)
    assert "another directory" in last_answer(moved)
    watched.rmdir()
    moved.rename(watched)


def test_a_probe_measures_twice_on_the_watcher(watched: Path) -> None:
    with StateProbe(discover(watched)) as probe:
        write(watched, "one.txt", "1\n")
        assert probe.measure().state_key == reference_key(watched)
        os.unlink(watched / "one.txt")
        write(watched, "two/three.txt", "3\n")
        assert probe.measure().state_key == reference_key(watched)
    assert last_answer(watched) == "a second measurement scans everything"


def test_verify_on_the_watcher_records_the_definitions_key(watched: Path) -> None:
    write_profile(watched)
    assert key_of(watched) == reference_key(watched)
    write(watched, "src.txt", "code\n")
    result = run_correx(watched, "verify", "--json")
    assert result.code == 0, result
    assert json.loads(result.stdout)["event"]["state_key"] == reference_key(watched)
    assert last_answer(watched) == "a second measurement scans everything"


def test_a_change_made_through_a_hard_link_never_verifies(watched: Path,
                                                         tmp_path: Path) -> None:
    """inotify does not tell the work tree's directory about a write through another
    name: the first key misses it, but verify's second measurement scans everything,
    so the run is not a pass for bytes it did not key."""
    write_profile(watched)
    assert key_of(watched) == reference_key(watched)
    outside = tmp_path / "outside-name"
    os.link(watched / "README.md", outside)
    with open(outside, "a") as handle:
        handle.write("changed where no watch looks\n")
    result = run_correx(watched, "verify", "--json")
    assert result.code != 0, result
    assert "changed while the commands ran" in result.stdout + result.stderr, result
    assert key_of(watched) == reference_key(watched)


def test_doctor_reports_the_watcher(watched: Path, watchman: Watchman) -> None:
    assert "watcher: on, watchman watching" in run_correx(watched, "doctor").stdout
    watchman.kill()
    said = run_correx(watched, "doctor").stdout
    assert "warn" in said and "watcher: on, but keys scan the whole work tree" in said, said


def test_stop_ends_the_watch_start_made_even_after_a_second_start(
        watched: Path, watchman: Watchman) -> None:
    assert run_correx(watched, "watch", "start").code == 0
    assert run_correx(watched, "watch", "stop").code == 0
    assert watchman.command("watch-list")["roots"] == []


class fake_watchman:
    """A unix socket server answering every BSER request with 'no change since clock'."""

    def __init__(self, sock: str, clock: str) -> None:
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(sock)
        self.server.listen(4)
        self.clock = clock
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> fake_watchman:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.close()

    def _serve(self) -> None:
        start, pid, number, tick = self.clock.split(":")[1:]
        answer = {"clock": f"c:{start}:{pid}:{number}:{int(tick) + 5}", "files": [],
                  "is_fresh_instance": False, "version": "4.9.0"}
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn, suppress(OSError):  # the client hangs up once it sees who we are
                conn.recv(65536)
                conn.sendall(encode_pdu(answer))
