"""A real git server on loopback for sharing tests: `git daemon` with receive-pack enabled."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import git, write


@dataclass(frozen=True)
class GitServer:
    """A daemon serving every bare repository under `base` at `url_of(name)`."""

    base: Path
    port: int

    def url_of(self, name: str) -> str:
        return f"git://127.0.0.1:{self.port}/{name}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(port: int, daemon: subprocess.Popen[bytes]) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and daemon.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


@pytest.fixture
def git_server(tmp_path: Path) -> Iterator[GitServer]:
    """Start `git daemon` on a free loopback port; stop it (that process only) afterwards."""
    base = tmp_path / "served"
    base.mkdir()
    for _ in range(5):
        port = free_port()
        daemon = subprocess.Popen(
            ["git", "daemon", "--reuseaddr", "--enable=receive-pack", "--export-all",
             f"--base-path={base}", f"--port={port}", "--listen=127.0.0.1", "--informative-errors",
             str(base)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if wait_for_port(port, daemon):
            break
        daemon.kill()
        daemon.wait()
    else:
        pytest.fail("git daemon did not start on loopback")
    try:
        yield GitServer(base, port)
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)


@pytest.fixture
def shared_remote(git_server: GitServer, tmp_path: Path) -> Callable[[int], list[Path]]:
    """Factory: a served bare repository with one commit, and `n` clones of it."""

    def factory(clones: int) -> list[Path]:
        git(git_server.base, "init", "-q", "--bare", "ledger.git")
        seed = tmp_path / "seed"
        seed.mkdir()
        git(seed, "init", "-q")
        write(seed, "README.md", "shared\n")
        git(seed, "add", "-A")
        git(seed, "commit", "-q", "-m", "initial")
        git(seed, "push", "-q", git_server.url_of("ledger.git"), "HEAD:refs/heads/main")
        paths = []
        for index in range(clones):
            path = tmp_path / f"clone{index}"
            git(tmp_path, "clone", "-q", git_server.url_of("ledger.git"), path.name)
            paths.append(path)
        return paths

    return factory


def remote_path(server: GitServer) -> Path:
    return server.base / "ledger.git"
