"""A real git server on loopback for sharing tests: `git daemon` with receive-pack enabled."""

from __future__ import annotations

import socket
import subprocess
import time
import uuid
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


def serves(url: str, daemon: subprocess.Popen[bytes]) -> bool:
    """True once `daemon` itself answers at `url`: a bare repository only its base holds.

    A port that merely accepts connections proves nothing under parallel tests: between the
    probe releasing a free port and the daemon binding it, another test's daemon may take it,
    and ours then exits while a connect check succeeds against theirs."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and daemon.poll() is None:
        probe = subprocess.run(["git", "ls-remote", url], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, check=False, timeout=10)
        if probe.returncode == 0:
            return daemon.poll() is None
        time.sleep(0.05)
    return False


@pytest.fixture
def git_server(tmp_path: Path) -> Iterator[GitServer]:
    """Start `git daemon` on a free loopback port; stop it (that process only) afterwards."""
    base = tmp_path / "served"
    base.mkdir()
    marker = f"probe-{uuid.uuid4().hex}.git"  # names this daemon's base among all served
    git(base, "init", "-q", "--bare", marker)
    for _ in range(5):
        port = free_port()
        daemon = subprocess.Popen(
            ["git", "daemon", "--reuseaddr", "--enable=receive-pack", "--export-all",
             f"--base-path={base}", f"--port={port}", "--listen=127.0.0.1", "--informative-errors",
             str(base)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if serves(GitServer(base, port).url_of(marker), daemon):
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
