"""A connection the server drops (a server at capacity) costs a round, not the sync."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import CliResult, git
from tests.ledger_facts import verify_tree
from tests.sync.conftest import GitServer
from tests.sync.test_sync import dirty_tree


class DroppingProxy:
    """A loopback TCP proxy to the daemon that resets its first `drops` connections."""

    def __init__(self, target: int, drops: int) -> None:
        self.target, self.drops = target, drops
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.drops > 0:
                self.drops -= 1
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
                client.close()  # linger 0: the client sees a reset
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pipe, args=(a, b), daemon=True).start()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
        sink.shutdown(socket.SHUT_WR)
    except OSError:
        pass


@pytest.fixture
def flaky_origin(git_server: GitServer) -> Iterator[Callable[[Path, int], None]]:
    proxies: list[DroppingProxy] = []

    def point(clone: Path, drops: int) -> None:
        proxy = DroppingProxy(git_server.port, drops)
        proxies.append(proxy)
        git(clone, "remote", "set-url", "origin", f"git://127.0.0.1:{proxy.port}/ledger.git")

    yield point
    for proxy in proxies:
        proxy.listener.close()


def test_a_dropped_connection_costs_a_round_and_the_sync_succeeds(
    shared_remote: Callable[[int], list[Path]], flaky_origin: Callable[[Path, int], None],
    correx: Callable[..., CliResult],
) -> None:
    (one,) = shared_remote(1)
    verify_tree(one, dirty_tree(one, "a.txt"))
    flaky_origin(one, 1)
    result = correx(one, "sync", "--json")
    assert result.code == 0, result
    report = json.loads(result.stdout)
    assert report["outcome"] == "pushed" and report["rounds"] == 2
    assert len(report["transport_errors"]) == 1


SSH_CUTTING_PUSHES = """#!/bin/sh
# ssh for ssh://host/PATH: runs the git command asked for ($2) on PATH. While the count in
# COUNTER is above zero, a push (git-receive-pack) finds its pipe closed: the wrapper closes its
# stdin before the ref advertisement goes out, so git push dies of SIGPIPE writing its commands.
left=$(cat {counter})
case "$2" in
  git-receive-pack*)
    if [ "$left" -gt 0 ]; then
      echo $((left - 1)) > {counter}
      exec 0<&-
      eval "$2" </dev/null 2>/dev/null
      exit 0
    fi ;;
esac
eval "exec $2"
"""


@pytest.fixture
def cutting_origin(tmp_path: Path) -> Callable[[Path, int], None]:
    """Point `clone`'s origin at itself over a fake ssh whose first `cuts` pushes die of
    SIGPIPE (a real git push killed by a real signal: no mock of git)."""

    def point(clone: Path, cuts: int) -> None:
        counter = tmp_path / "cuts-left"
        counter.write_text(f"{cuts}\n")
        ssh = tmp_path / "cutting-ssh"
        ssh.write_text(SSH_CUTTING_PUSHES.format(counter=counter))
        ssh.chmod(0o755)
        origin = git(clone, "remote", "get-url", "origin").strip()
        git(clone, "config", "core.sshCommand", str(ssh))
        git(clone, "config", "ssh.variant", "simple")
        git(clone, "remote", "set-url", "origin", f"ssh://localhost{origin}")

    return point


def test_a_push_killed_by_sigpipe_costs_a_round_and_the_sync_succeeds(
    make_repo: Callable[..., Path], tmp_path: Path,
    cutting_origin: Callable[[Path, int], None], correx: Callable[..., CliResult],
) -> None:
    clone = _clone_of_a_bare_remote(make_repo, tmp_path)
    verify_tree(clone, dirty_tree(clone, "a.txt"))
    cutting_origin(clone, 1)
    result = correx(clone, "sync", "--json")
    assert result.code == 0, result
    report = json.loads(result.stdout)
    assert report["outcome"] == "pushed" and report["rounds"] == 2, report
    assert report["transport_errors"] == ["git push was killed by SIGPIPE"], report


def test_a_push_killed_by_sigpipe_every_round_is_exit_3_with_one_line(
    make_repo: Callable[..., Path], tmp_path: Path,
    cutting_origin: Callable[[Path, int], None], correx: Callable[..., CliResult],
) -> None:
    clone = _clone_of_a_bare_remote(make_repo, tmp_path)
    verify_tree(clone, dirty_tree(clone, "a.txt"))
    cutting_origin(clone, 100)
    before = git(clone, "rev-parse", "refs/notes/correx")
    result = correx(clone, "sync")
    assert result.code == 3, result
    error, hint = result.stderr.splitlines()
    assert error.startswith("git correx: error: sync with origin:"), result
    assert "SIGPIPE" in error and "Traceback" not in result.stderr, result
    assert hint.startswith("  hint: "), result
    assert git(clone, "rev-parse", "refs/notes/correx") == before


def _clone_of_a_bare_remote(make_repo: Callable[..., Path], tmp_path: Path) -> Path:
    seed = make_repo("seed")
    git(tmp_path, "clone", "-q", "--bare", str(seed), "remote.git")
    git(tmp_path, "clone", "-q", str(tmp_path / "remote.git"), "clone")
    return tmp_path / "clone"
