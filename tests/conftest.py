"""Real repositories in temporary directories, an isolated git environment, CLI runners.

Nothing here mocks git: every fixture runs the real binary or libgit2 on real files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from gitcorrex.cli.operator_guard import AGENT_RUNTIMES
from gitcorrex.git import Repository, discover
from tests.git.watch_helpers import WATCHMAN, Watchman

REPO_ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked slow run first (a stable sort). Under pytest-xdist (`--dist loadfile
    --no-loadscope-reorder`: a file's tests stay on one worker, files go out in this order)
    the files holding the long stress tests start first and the many short ones fill in
    around them, instead of one of them starting last and holding the run while the other
    workers idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


# Set by coding agents in the shells they run (cli/operator_guard.py): a suite run from an
# agent's shell would otherwise see every operator command refused.
AGENT_MARKERS = tuple(marker for runtime in AGENT_RUNTIMES for marker in runtime.markers)
LEAKING_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CONFIG_GLOBAL",
                   "GIT_OBJECT_DIRECTORY", "GIT_CEILING_DIRECTORIES")


def isolated_environment(home: Path) -> dict[str, str]:
    """The variables that isolate git in `home` (written with its .gitconfig here): no user
    or system config, fixed identities and dates. Unset LEAKING_GIT_ENV besides."""
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Ada Tester\n\temail = ada@example.test\n"
        "[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n"
    )
    return {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Ada Tester",
            "GIT_AUTHOR_EMAIL": "ada@example.test", "GIT_COMMITTER_NAME": "Ada Tester",
            "GIT_COMMITTER_EMAIL": "ada@example.test", "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
            "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
            # every agent hook call in its own process, unless a test starts a resident one
            "CORREX_RESIDENT": "off"}


@pytest.fixture(autouse=True)
def isolated_git(tmp_path_factory: pytest.TempPathFactory,
                 monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No user or system config leaks in; identities and dates are fixed."""
    home = tmp_path_factory.mktemp("home")
    for name in (*LEAKING_GIT_ENV, *AGENT_MARKERS):
        monkeypatch.delenv(name, raising=False)
    for name, value in isolated_environment(home).items():
        monkeypatch.setenv(name, value)
    with libgit2_config_at(home, tmp_path_factory.mktemp("no-system-config")):
        yield


@contextmanager
def libgit2_config_at(home: Path, no_system: Path) -> Iterator[None]:
    """libgit2 fixed its config search path when it loaded, before HOME changed here: point
    it at the isolated HOME too, or in-process appends would take the machine's identity."""
    import pygit2
    from pygit2.enums import ConfigLevel

    paths = {ConfigLevel.GLOBAL: str(home), ConfigLevel.XDG: str(home / ".config"),
             ConfigLevel.SYSTEM: str(no_system)}
    saved = {level: pygit2.settings.search_path[level] for level in paths}
    for level, path in paths.items():
        pygit2.settings.search_path[level] = path
    try:
        yield
    finally:
        for level, path in saved.items():
            pygit2.settings.search_path[level] = path


def git(cwd: Path, *args: str, env: dict[str, str] | None = None,
        input: bytes | None = None) -> str:
    """Run real git; fail the test with git's stderr when it fails."""
    full_env = {**os.environ, **(env or {})}
    proc = subprocess.run(["git", *args], cwd=cwd, env=full_env, input=input,
                          capture_output=True, check=False)
    if proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed ({proc.returncode}):\n"
                             f"{proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode("utf-8", "surrogateescape")


def write(root: Path, rel: str, content: str | bytes = "x\n") -> Path:
    """Create a file (and its parents) under `root`."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    return path


def commit_a_change(repo: Path, rel: str = "feature.txt") -> str:
    """Commit one new file on top of HEAD; the commit before it (a range's base)."""
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, rel, "x\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "feature")
    return base


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[..., Path]:
    """Factory: a real repository with `files` committed (or not, with commit=False)."""

    def factory(name: str = "repo", files: dict[str, str | bytes] | None = None,
                commit: bool = True) -> Path:
        root = tmp_path / name
        root.mkdir()
        git(root, "init", "-q")
        for rel, content in (files or {"README.md": "hello\n"}).items():
            write(root, rel, content)
        if commit:
            git(root, "add", "-A")
            git(root, "commit", "-q", "-m", "initial")
        return root

    return factory


@pytest.fixture
def repo(make_repo: Callable[..., Path]) -> Path:
    """A repository with one commit holding README.md."""
    return make_repo()


@dataclass
class CliResult:
    """What one `git correx` run printed and returned."""

    code: int
    stdout: str
    stderr: str

    def __str__(self) -> str:
        return f"exit {self.code}\n--- stdout ---\n{self.stdout}\n--- stderr ---\n{self.stderr}"


IDENTITY_ENV = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                "GIT_COMMITTER_EMAIL", "EMAIL")


def run_correx(cwd: Path, *args: str, env: dict[str, str] | None = None,
               input: bytes | None = None, timeout: float = 120,
               unset: tuple[str, ...] = ()) -> CliResult:
    """`git correx ARGS` as a real process (python -m gitcorrex), as a user would run it;
    `unset` names environment variables the process must not see (e.g. IDENTITY_ENV)."""
    full_env = {name: value for name, value in os.environ.items() if name not in unset}
    full_env.update(env or {})
    full_env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "gitcorrex", *args], cwd=cwd, env=full_env,
                          input=input, capture_output=True, check=False, timeout=timeout)
    return CliResult(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                     proc.stderr.decode("utf-8", "replace"))


@pytest.fixture
def correx() -> Callable[..., CliResult]:
    """The CLI runner fixture; `print(result)` shows everything when an assert fails."""
    return run_correx


def in_process(start: Path) -> Repository:
    """The repository git finds from `start`, with libgit2 opened on it: `git/`'s in-process
    engine answers its notes operations (as in a command that opened libgit2 first)."""
    repo = discover(start)
    repo.libgit2()
    return repo


@contextmanager
def nothing_stored(repo: Repository) -> Iterator[None]:
    """Inside the block, nothing derived from the ledger is kept (`<common dir>/correx/
    folds` set aside): every reader folds the notes anew. Put back afterwards."""
    stored = repo.common_dir / "correx" / "folds"
    kept = stored.with_name("folds-kept")
    if stored.exists():
        stored.rename(kept)
    try:
        yield
    finally:
        shutil.rmtree(stored, ignore_errors=True)
        if kept.exists():
            kept.rename(stored)


GIT_LOG = "git-calls.log"


def logging_git(tmp_path: Path) -> Path:
    """A directory holding a `git` that appends `<its parent pid> <that one's parent pid>
    <args>` to a log, then runs the real git (for `rev-parse`, CORREX_TEST_GIT_SLEEP seconds
    later: a slow call)."""
    bin_dir = tmp_path / "logbin"
    if not bin_dir.exists():
        bin_dir.mkdir()
        real = shutil.which("git")
        wrapper = bin_dir / "git"
        wrapper.write_text(
            "#!/bin/sh\n"
            'grand=$(cut -d" " -f4 /proc/$PPID/stat)\n'
            f'echo "$PPID $grand $*" >> "{tmp_path / GIT_LOG}"\n'
            'case " $* " in *" rev-parse "*) [ -n "$CORREX_TEST_GIT_SLEEP" ] && '
            'sleep "$CORREX_TEST_GIT_SLEEP";; esac\n'
            f'exec {real} "$@"\n')
        wrapper.chmod(0o755)
    return bin_dir


@pytest.fixture
def watchman(monkeypatch: pytest.MonkeyPatch) -> Iterator[Watchman]:
    """A private watchman server (tests/git/watch_helpers.py), recorded by `watch start`
    through $WATCHMAN_SOCK."""
    if WATCHMAN is None:
        pytest.skip("watchman is not installed (Debian: apt-get install watchman)")
    server = Watchman()
    server.start()
    monkeypatch.setenv("WATCHMAN_SOCK", server.sock)
    try:
        yield server
    finally:
        server.close()
