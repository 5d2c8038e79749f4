"""What an allowed agent call loads: every tool call of a session pays it, so the allow
paths keep to the interpreter, the standard library's lighter half and git. An allowed Write
(stage manifest, compiled and cached) and an allowed Bash call, as Claude Code sends them,
load neither pydantic, pygit2, click, pathspec nor `dataclasses` (which loads `inspect`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agents.conftest import claude
from tests.conftest import REPO_ROOT, git

HEAVY = {"pydantic", "pygit2", "click", "pathspec", "dataclasses"}


def imported_by_hook(root: Path, payload: bytes) -> set[str]:
    """The modules a real `assess --hook claude-code` process imports. The first run fills
    the manifest cache; the second runs without `site` (`-S`, site-packages named on
    PYTHONPATH instead), so nothing an installer's start-up hook loads (an editable
    install's finder loads `pathlib`) hides what the call itself imports."""
    paths = [str(REPO_ROOT), *(path for path in sys.path if path.endswith("site-packages"))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    argv = ["-m", "gitcorrex", "assess", "--hook", "claude-code"]
    for flags in ([], ["-S", "-X", "importtime"]):
        proc = subprocess.run([sys.executable, *flags, *argv], cwd=root, env=env, input=payload,
                              capture_output=True, check=False, timeout=60)
        assert proc.returncode == 0 and proc.stdout == b"", proc  # allowed: nothing said
    return {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines()}


@pytest.fixture
def staged_project(project: Path) -> Path:
    git(project, "config", "correx.stage", "implement")
    return project


def test_an_allowed_write_loads_nothing_heavy(staged_project: Path) -> None:
    payload = claude("PreToolUse", staged_project, "Write",
                     file_path=str(staged_project / "src" / "new.py"), content="X = 1\n")
    assert not HEAVY & imported_by_hook(staged_project, payload)


def test_an_allowed_shell_call_loads_nothing_heavy(staged_project: Path) -> None:
    payload = claude("PreToolUse", staged_project, "Bash", command="pytest -q && git status")
    assert not HEAVY & imported_by_hook(staged_project, payload)
