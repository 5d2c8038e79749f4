"""An agent's allowed write inside a session step is proven without events or pathspec.

Every tool call of an agent in a session step runs the hook; the allow path proves most of
them from the session's stored fold, the step's compiled manifest and the runtime actor
(agents/proven_allow.py). These tests hold it to the judge: the step's manifest, not the
stage's, decides while a step is active; the stage's decides between steps; another
runtime's write is denied; and the proof loads neither pydantic nor pathspec. Real
`git correx` processes, Claude Code's PreToolUse payload as it sends it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.agents.conftest import claude
from tests.conftest import REPO_ROOT, CliResult, git
from tests.session.conftest import cli, locked, plans, project  # noqa: F401  (fixtures)

Correx = Callable[..., CliResult]
WORKER = {"CORREX_RUNTIME": "worker-1"}


def write_call(correx: Correx, root: Path, path: str,
               env: dict[str, str] | None = None) -> CliResult:
    payload = claude("PreToolUse", root, "Write", file_path=str(root / path), content="X = 1\n")
    return correx(root, "assess", "--hook", "claude-code", input=payload, env=env or WORKER)


def decision(result: CliResult) -> str:
    assert result.code == 0, result
    if not result.stdout:
        return "allow"
    return str(json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"])


@pytest.fixture
def in_step(locked: tuple[Path, str], correx: Correx) -> Path:  # noqa: F811
    """Step S1 (writes: src/a.py; the stage allows src/**) started by worker-1."""
    root, _ = locked
    assert correx(root, "step", "start", "S1", env=WORKER).code == 0
    return root


def test_the_steps_manifest_decides_while_the_step_is_active(in_step: Path,
                                                              correx: Correx) -> None:
    assert decision(write_call(correx, in_step, "src/a.py")) == "allow"
    assert decision(write_call(correx, in_step, "src/a.py")) == "allow"  # from the caches
    assert decision(write_call(correx, in_step, "src/b.py")) == "deny"  # the stage allows it
    assert decision(write_call(correx, in_step, "docs/x.md")) == "deny"


def test_another_runtime_is_denied_though_the_path_is_the_steps(in_step: Path,
                                                                correx: Correx) -> None:
    assert decision(write_call(correx, in_step, "src/a.py")) == "allow"
    assert decision(write_call(correx, in_step, "src/a.py", {"CORREX_RUNTIME": "w2"})) == "deny"


def test_between_steps_the_stages_manifest_decides(locked: tuple[Path, str],  # noqa: F811
                                                   correx: Correx) -> None:
    root, _ = locked
    assert decision(write_call(correx, root, "docs/x.md")) == "allow"  # no stage selected
    git(root, "config", "correx.stage", "implement")
    assert decision(write_call(correx, root, "src/b.py")) == "allow"
    assert decision(write_call(correx, root, "docs/x.md")) == "deny"


def test_an_allowed_write_in_a_step_loads_no_events_and_no_pathspec(in_step: Path) -> None:
    payload = claude("PreToolUse", in_step, "Write", file_path=str(in_step / "src/a.py"),
                     content="X = 1\n")
    env = {**os.environ, **WORKER, "PYTHONPATH": str(REPO_ROOT)}
    argv = [sys.executable, "-X", "importtime", "-m", "gitcorrex", "assess", "--hook",
            "claude-code"]
    for _ in range(2):  # the first call compiles the step's manifest and keeps it
        proc = subprocess.run(argv, cwd=in_step, env=env, input=payload,
                              capture_output=True, check=False, timeout=60)
        assert proc.returncode == 0 and proc.stdout == b"", proc
    imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines()}
    assert not {"pydantic", "pathspec", "pygit2", "click"} & imported


def test_an_identity_git_rewrites_is_compared_as_git_forms_it(in_step: Path,
                                                              correx: Correx) -> None:
    """The actor is git's author identity as `git var` forms it (`<`, `>` and line breaks
    dropped), for the allow path as for the judge: `Ada <Tester>` is the step's Ada Tester,
    a name with a line break in it is another actor."""
    angled = {**WORKER, "GIT_AUTHOR_NAME": "Ada <Tester>"}
    assert decision(write_call(correx, in_step, "src/a.py", angled)) == "allow"
    broken = {**WORKER, "GIT_AUTHOR_NAME": "Ada\nTester"}
    denied = write_call(correx, in_step, "src/a.py", broken)
    assert decision(denied) == "deny"
    assert "by AdaTester <ada@example.test>" in denied.stdout, denied
