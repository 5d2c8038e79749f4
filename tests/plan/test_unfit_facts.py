"""A plan fact whose line does not fit its payload class counts for nothing (plan/decision.py,
plan/lock_checks.py, plan/split.py), through the installed `git correx` console script.

Each test records the fact with the real command, then rewrites its line through `git notes`
with one field that does not fit (the line stays canonical, its id recomputed), as a careless
or foreign writer could: the line is no validation, authorization, grounding or split route.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gitcorrex.model.canonical import canonical_json, content_id
from gitcorrex.plan.load import load_plan
from tests.conftest import CliResult, git
from tests.plan.conftest import fixture, parse

PLAN = fixture("atomic_step.toml")
SCRIPT = Path(sys.executable).parent / "git-correx"


def correx(root: Path, *args: str) -> CliResult:
    """`git correx ARGS` as a user runs it: git finds the console script on PATH."""
    if not SCRIPT.exists():  # pragma: no cover - the test venv installs the package
        pytest.skip(f"no console script at {SCRIPT}")
    env = {**os.environ, "PATH": f"{SCRIPT.parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["git", "correx", *args], cwd=root, env=env, capture_output=True,
                          text=True, check=False, timeout=120)
    return CliResult(proc.returncode, proc.stdout, proc.stderr)


def ok(root: Path, *args: str) -> CliResult:
    result = correx(root, *args)
    assert result.code == 0, result
    return result


def unfit(root: Path, kind: str, **fields: object) -> None:
    """Rewrite the plan note's `kind` line with `fields` that do not fit its class."""
    subject = load_plan(PLAN).identity
    lines = git(root, "notes", "--ref=correx", "show", subject).splitlines()
    [index] = [i for i, line in enumerate(lines) if json.loads(line)["kind"] == kind]
    body = {**json.loads(lines[index]), **fields}
    body["id"] = content_id(body)
    lines[index] = canonical_json(body)
    note = root.parent / "note.txt"
    note.write_text("\n".join(lines) + "\n")
    git(root, "notes", "--ref=correx", "add", "-f", "-F", str(note), subject)


def lock_missing(root: Path) -> set[str]:
    """Ground and verify the current state, then `plan lock`: the codes it says are missing."""
    ok(root, "plan", "ground", str(PLAN))
    ok(root, "verify", "--expect", "full", "--quiet")
    result = correx(root, "plan", "lock", str(PLAN), "--json")
    assert result.code == 1, result
    document = parse(result)
    assert not document["locked"] and document["events"] == []
    return {m["code"] for m in document["missing"]}


def test_a_validation_line_that_does_not_fit_does_not_count_as_validated(
        plan_repo: Path) -> None:
    ok(plan_repo, "plan", "authorize", str(PLAN))
    ok(plan_repo, "plan", "validate", str(PLAN))
    unfit(plan_repo, "plan_validated", execution_started="maybe")  # a bool field
    assert lock_missing(plan_repo) == {"validation_missing"}


def test_an_authorization_line_that_does_not_fit_does_not_authorize(plan_repo: Path) -> None:
    ok(plan_repo, "plan", "authorize", str(PLAN))
    unfit(plan_repo, "plan_authorized", plan_id=["atomic"])  # a string field
    result = correx(plan_repo, "plan", "validate", str(PLAN), "--json")
    assert result.code == 1, result
    document = parse(result)
    assert document["decision"] == "stop-escalate" and document["authority"] is None
    assert [f["code"] for f in document["findings"]] == ["authorization_missing"]
    again = ok(plan_repo, "plan", "authorize", str(PLAN), "--json")
    assert parse(again)["recorded"], again  # not "already authorized" by the unfit line


def test_a_grounding_line_that_does_not_fit_is_no_grounding(plan_repo: Path) -> None:
    ok(plan_repo, "plan", "authorize", str(PLAN))
    ok(plan_repo, "plan", "validate", str(PLAN))
    ok(plan_repo, "plan", "ground", str(PLAN))
    unfit(plan_repo, "plan_grounding_evaluated", extractors="python")  # a mapping field
    ok(plan_repo, "verify", "--expect", "full", "--quiet")
    result = correx(plan_repo, "plan", "lock", str(PLAN), "--json")
    assert result.code == 1, result
    assert {m["code"] for m in parse(result)["missing"]} == {"grounding_missing"}


def test_a_split_route_line_that_does_not_fit_is_treated_as_absent(plan_repo: Path) -> None:
    ok(plan_repo, "plan", "authorize", str(PLAN))
    step = load_plan(PLAN).plan.steps[0].id
    ok(plan_repo, "plan", "route", str(PLAN), "--step", step, "--split", "--reason", "too big")
    unfit(plan_repo, "plan_routed", reason="")  # a reason is never empty
    result = correx(plan_repo, "plan", "validate", str(PLAN), "--json")
    assert result.code == 0, result
    assert parse(result)["decision"] == "accepted"
