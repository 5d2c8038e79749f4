"""Repositories with the hooks installed, and real `git commit` runs that execute them.

The installed scripts pin `sys.executable` (the interpreter running these tests) and the
commits run with PYTHONPATH pointing at this checkout, so the hook git starts imports the
code under test. Recorded events are read back through `git correx replay --json`.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, CliResult, git, run_correx, write

STAGE = "implement"
PROFILE = f"""version = 1

[stages.{STAGE}]
writes = ["/src/**"]

[stages.docs]
writes = ["/docs/**", "/src/**"]
"""
FILES = {".correx.toml": PROFILE, "README.md": "hello\n", "src/app.py": "print(1)\n",
         "docs/guide.md": "# guide\n"}


@dataclass
class GitRun:
    """One real git invocation that may fail (a blocked commit is the point of a test)."""

    code: int
    stdout: str
    stderr: str

    def __str__(self) -> str:
        return f"exit {self.code}\n--- stdout ---\n{self.stdout}\n--- stderr ---\n{self.stderr}"


def hook_env() -> dict[str, str]:
    """The environment a commit runs in: the hook's interpreter imports this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run_git(cwd: Path, *args: str, env: dict[str, str] | None = None,
            input: bytes | None = None) -> GitRun:
    proc = subprocess.run(["git", *args], cwd=cwd, env={**hook_env(), **(env or {})},
                          input=input, capture_output=True, check=False, timeout=120)
    return GitRun(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                  proc.stderr.decode("utf-8", "replace"))


def commit(cwd: Path, *args: str, message: str = "change",
           env: dict[str, str] | None = None) -> GitRun:
    """`git commit -m MESSAGE ARGS…` with the installed hooks running."""
    return run_git(cwd, "commit", "-q", "-m", message, *args, env=env)


def assessments(root: Path) -> list[dict[str, object]]:
    """Every tool_call_assessed event in the ledger, oldest first."""
    result = run_correx(root, "replay", "--json")
    assert result.code == 0, result
    events = json.loads(result.stdout)["events"]
    return [event for event in events if event["kind"] == "tool_call_assessed"]


def install(root: Path, *args: str) -> CliResult:
    result = run_correx(root, "hooks", "install", *args)
    assert result.code == 0, result
    return result


@pytest.fixture
def hooked(make_repo: Callable[..., Path]) -> Path:
    """A repository whose HEAD declares stage `implement` (writes /src/**), hooks installed,
    the stage selected with `git config correx.stage`."""
    root = make_repo(files=FILES)
    install(root)
    git(root, "config", "correx.stage", STAGE)
    return root


@pytest.fixture
def unstaged(make_repo: Callable[..., Path]) -> Path:
    """The same repository with the hooks installed but no stage selected."""
    root = make_repo(files=FILES)
    install(root)
    return root


def stage_file(root: Path, rel: str, content: str | bytes = "changed\n") -> None:
    write(root, rel, content)
    git(root, "add", "--", rel)


def hook_path(root: Path, name: str = "pre-commit") -> Path:
    return Path(git(root, "rev-parse", "--path-format=absolute", "--git-path",
                    f"hooks/{name}").strip())
