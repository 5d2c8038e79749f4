"""A project whose check fails while a source file says BUG, and three-step plans for it.

Plans are written outside the repository (a plan file never changes the state key).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from gitcorrex import ledger
from gitcorrex.git.repository import discover
from gitcorrex.ledger.provenance import current_provenance
from tests.conftest import CliResult
from tests.ledger_facts import raw_draft
from tests.plan.conftest import cli  # noqa: F401  (the in-process CLI fixture)

PROFILE = """\
version = 1

[commands]
test = "python3 check.py"

[expectations]
test = ["test"]
notes = []

[stages.implement]
build_expectation = "test"
writes = ["src/**"]
max_attempts = 2

[stages.docs]
build_expectation = "notes"
writes = ["docs/**"]
"""

CHECK = """\
import pathlib
import sys

sources = sorted(pathlib.Path("src").glob("*.py"))
if any("TOUCH" in p.read_text() for p in sources):
    pathlib.Path("touched.txt").write_text("the check changed the workspace\\n")
bad = [str(p) for p in sources if "BUG" in p.read_text()]
for path in bad:
    print(f"FAILED: {path} has a bug")
sys.exit(1 if bad else 0)
"""


def step(step_id: str, writes: Sequence[str], *, deps: Sequence[str] = (),
         stage: str = "implement", output: str | None = None,
         blockers: Sequence[dict[str, str]] = ()) -> dict[str, Any]:
    """One plan step with one output proven by its one check (and declared blocker edges)."""
    return {"id": step_id, "stage": stage, "writes": list(writes),
            "expected_outputs": [output or f"{step_id} works"],
            "checks": ["test" if stage == "implement" else "notes"],
            "verification_map": [{"output": 0, "evidence": [{"check": 0}]}],
            "dependencies": [{"step": d, "requires": [0]} for d in deps],
            **({"blockers": list(blockers)} if blockers else {})}


# The blocker claims S1 may be paused on (seed 004's declared edges), as the claim tests use.
S1_EDGES = [{"class": "observed_fact", "provider": "verification", "fact": fact}
            for fact in ("exit_code", "result", "stop_reason", "output")] + [
    {"class": "user_authority", "provider": "verification", "fact": "exit_code"},
    {"class": "observed_fact", "provider": "oracle", "fact": "exit_code"}]

THREE_STEPS = [step("S1", ["src/a.py"], blockers=S1_EDGES),
               step("S2", ["src/b.py"], deps=["S1"]), step("S3", ["src/c.py"], deps=["S2"])]


@pytest.fixture
def project(make_repo: Callable[..., Path]) -> Path:
    """A committed repository with the profile and its check, nothing in src/ yet."""
    return make_repo("project", files={".correx.toml": PROFILE, "check.py": CHECK,
                                       "src/__init__.py": ""})


@pytest.fixture
def plans(tmp_path: Path) -> Callable[..., Path]:
    """Write a JSON plan outside the repository; returns its path."""

    def write_plan(name: str, steps: list[dict[str, Any]], plan_id: str = "three") -> Path:
        path = tmp_path / "plans" / f"{name}.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps({"version": 1, "id": plan_id, "risk": "low",
                                    "steps": steps}))
        return path

    return write_plan


def lock_ready(run: Callable[..., CliResult], root: Path, plan: Path,
               *extra: str) -> CliResult:
    """authorize, validate, ground, verify (a new session's first baseline) and lock `plan`
    on the current state; the lock's result."""
    for command in ("authorize", "validate", "ground"):
        result = run(root, "plan", command, str(plan))
        assert result.code == 0, result
    if "--replaces" not in extra and "--baseline-unverified" not in extra:
        verified = run(root, "verify", "--expect", "test", "--quiet")
        assert verified.code == 0, verified
    return run(root, "plan", "lock", str(plan), *extra)


def append(root: Path, kind: str, session: str, fields: dict[str, Any], *,
           step: str | None = None, state_key: str | None = None,
           subjects: tuple[str, ...] = ()) -> None:
    """Record one session event straight through the ledger API (what another gate does)."""
    repo = discover(root)
    draft = raw_draft(kind=kind, subjects=subjects, session=session, step=step,
                              state_key=state_key, fields=fields)
    ledger.append_events(repo, [draft], now=datetime.now(timezone.utc),
                         provenance=current_provenance(repo))


def status(run: Callable[..., CliResult], root: Path, session: str) -> dict[str, Any]:
    result = run(root, "session", "status", session, "--json")
    assert result.code in (0, 1), result
    return json.loads(result.stdout)


def steps_of(document: dict[str, Any]) -> dict[str, tuple[str, int]]:
    """step id → (status, attempts) from a status document."""
    return {s["id"]: (s["status"], s["attempts"]) for s in document["state"]["steps"]}


@pytest.fixture
def locked(project: Path, plans: Callable[..., Path],
           cli: Callable[..., CliResult]) -> tuple[Path, str]:  # noqa: F811
    """The project with the three-step plan locked (in process); (root, session id)."""
    result = lock_ready(cli, project, plans("v1", THREE_STEPS), "--session", "run-1")
    assert result.code == 0, result
    return project, "run-1"


def state_key(root: Path) -> str:
    """The workspace's state key, as `git correx state` computes it."""
    from gitcorrex.git.state import compute_state

    return compute_state(discover(root)).state_key
