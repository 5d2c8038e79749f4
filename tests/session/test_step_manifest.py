"""While a step is active, `assess` and the pre-commit hook enforce its declared writes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.conftest import git, write
from tests.session.conftest import THREE_STEPS, lock_ready, step


def test_assess_allows_only_the_active_steps_writes(locked, cli) -> None:
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    result = cli(root, "assess", "write", "src/a.py", "src/b.py", "--json")
    assert result.code == 1, result
    document = json.loads(result.stdout)
    assert [p["verdict"] for p in document["paths"]] == ["ALLOW", "BLOCK"]
    assert document["manifest_source"] == f"step 'S1' of session '{session}'"
    assert document["manifest"] == ["src/a.py"]


def test_between_steps_the_stage_manifest_applies(locked, cli) -> None:
    root, _ = locked
    assert cli(root, "assess", "write", "src/b.py").code == 0  # no stage, no active step


def test_the_pre_commit_hook_blocks_writes_outside_the_active_step(locked, cli,
                                                                  correx) -> None:
    root, _ = locked
    assert correx(root, "hooks", "install").code == 0
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/b.py", "B = 1\n")
    git(root, "add", "src/b.py")
    blocked = correx(root, "hook", "run", "pre-commit")
    assert blocked.code == 1 and "src/b.py" in blocked.stderr, blocked
    assert "step 'S1'" in blocked.stderr
    git(root, "reset", "-q", "src/b.py")
    write(root, "src/a.py", "A = 1\n")
    git(root, "add", "src/a.py")
    assert correx(root, "hook", "run", "pre-commit").code == 0


def test_git_commit_names_the_step_whose_writes_it_is_held_to(locked, cli, correx) -> None:
    root, session = locked
    assert correx(root, "hooks", "install").code == 0
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/b.py", "B = 1\n")
    git(root, "add", "src/b.py")
    commit = subprocess.run(["git", "commit", "-q", "-m", "b"], cwd=root, capture_output=True,
                            text=True, check=False)
    assert commit.returncode != 0, commit
    assert ("pre-commit: blocked: 1 path(s) outside the write manifest of step 'S1' of "
            f"session '{session}' (its declared writes, from the locked plan):") in \
        commit.stderr, commit.stderr
    assert "stage None" not in commit.stderr and "widen only by a re-plan" in commit.stderr


def test_a_configured_session_the_ledger_lacks_fails_closed(project: Path, correx) -> None:
    git(project, "config", "correx.session", "ghost")
    write(project, "src/x.py", "X = 1\n")
    git(project, "add", "src/x.py")
    result = correx(project, "hook", "run", "pre-commit")
    assert result.code == 2 and "ghost" in result.stderr


def test_a_step_without_writes_may_write_nothing(project: Path, plans, cli) -> None:
    plan = plans("nowrites", [step("D1", [], stage="docs"), THREE_STEPS[0]])
    assert lock_ready(cli, project, plan, "--session", "s").code == 0
    assert cli(project, "step", "start", "D1").code == 0
    result = cli(project, "assess", "write", "docs/a.md", "--json")
    assert result.code == 1
    assert "declares no writes" in json.loads(result.stdout)["manifest_source"]


def test_assess_follows_correx_session_from_the_environment(locked, cli, correx) -> None:
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    git(root, "config", "--unset", "correx.session")
    assert correx(root, "assess", "write", "src/b.py").code == 0  # no session: no step
    blocked = correx(root, "assess", "write", "src/b.py", env={"CORREX_SESSION": session})
    assert blocked.code == 1 and f"step 'S1' of session '{session}'" in blocked.stdout
