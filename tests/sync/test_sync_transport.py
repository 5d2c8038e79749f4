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
