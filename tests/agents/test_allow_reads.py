"""The allow path's three git reads, begun side by side from the call's directory
(agents/proven_allow.AllowReads): used only when that directory is the top level git names,
asked again from there otherwise. Counted with a `git` on PATH that logs its arguments."""

from __future__ import annotations

import os
from pathlib import Path

from tests.agents.conftest import claude
from tests.conftest import GIT_LOG, logging_git, run_correx, write


def logged(tmp_path: Path) -> dict[str, str]:
    """An environment whose `git` logs each call (tests/conftest.py `logging_git`)."""
    return {"PATH": f"{logging_git(tmp_path)}{os.pathsep}{os.environ['PATH']}"}


def config_reads(tmp_path: Path) -> list[str]:
    """The `git config --list` calls, their arguments only."""
    return [line.split(" ", 2)[2] for line in (tmp_path / GIT_LOG).read_text().splitlines()
            if "config -z --list" in line]


def test_reads_begun_at_the_top_level_are_the_ones_used(project: Path,
                                                        tmp_path: Path) -> None:
    env = logged(tmp_path)
    payload = claude("PreToolUse", project, "Write", file_path="src/new.py", content="x\n")
    result = run_correx(project, "assess", "--hook", "claude-code", input=payload, env=env)
    assert result.code == 0 and result.stdout == "", result
    reads = config_reads(tmp_path)
    assert reads == [f"-C {project} config -z --list --show-origin"], reads


def test_reads_begun_below_the_top_level_are_asked_again_from_it(
        project: Path, tmp_path: Path) -> None:
    env = logged(tmp_path)
    below = project / "src"
    write(below, "keep.txt")
    payload = claude("PreToolUse", below, "Write", file_path="new.py", content="x\n")
    result = run_correx(below, "assess", "--hook", "claude-code", input=payload, env=env)
    assert result.code == 0 and result.stdout == "", result  # src/new.py: inside /src/**
    assert config_reads(tmp_path) == [f"-C {below} config -z --list --show-origin",
                                      "config -z --list --show-origin"]
