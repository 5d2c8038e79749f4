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
from tests.ledger_facts import PROFILE


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


def probe_repository(base: Path) -> str:
    """A bare repository under `base` with a name no other test's base holds."""
    name = f"probe-{uuid.uuid4().hex}.git"
    git(base, "init", "-q", "--bare", name)
    return name


def start_daemon(base: Path, port: int, probe: str) -> subprocess.Popen[bytes] | None:
    """`git daemon` serving `base` on `port`, once it answers for its own `probe` repository;
    None (the process ended) when it does not.

    A port that merely accepts a connection proves nothing when tests run in parallel: between
    `free_port` releasing a port and the daemon binding it, another test's daemon may take it;
    ours then exits while a connect check succeeds against theirs."""
    daemon = subprocess.Popen(
        ["git", "daemon", "--reuseaddr", "--enable=receive-pack", "--export-all",
         f"--base-path={base}", f"--port={port}", "--listen=127.0.0.1", "--informative-errors",
         str(base)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = GitServer(base, port).url_of(probe)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and daemon.poll() is None:
        answer = subprocess.run(["git", "ls-remote", url], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, check=False, timeout=10)
        if answer.returncode == 0 and daemon.poll() is None:
            return daemon
        time.sleep(0.05)
    daemon.kill()
    daemon.wait()
    return None


@pytest.fixture
def git_server(tmp_path: Path) -> Iterator[GitServer]:
    """Start `git daemon` on a free loopback port; stop it (that process only) afterwards."""
    base = tmp_path / "served"
    base.mkdir()
    probe = probe_repository(base)
    for _ in range(5):
        port = free_port()
        daemon = start_daemon(base, port, probe)
        if daemon is not None:
            break
    else:
        pytest.fail("git daemon did not start on loopback")
    try:
        yield GitServer(base, port)
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)


@pytest.fixture
def shared_remote(git_server: GitServer, tmp_path: Path) -> Callable[[int], list[Path]]:
    """Factory: a served bare repository with one commit (README.md and a profile: a pass
    counts only under the profile its tree holds), and `n` clones of it."""

    def factory(clones: int) -> list[Path]:
        git(git_server.base, "init", "-q", "--bare", "ledger.git")
        seed = tmp_path / "seed"
        seed.mkdir()
        git(seed, "init", "-q")
        write(seed, "README.md", "shared\n")
        write(seed, ".correx.toml", PROFILE)
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
