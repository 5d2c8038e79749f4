"""Stage inputs (seed 002's reviewer that needs `analysis`): `[stages.X] consumes` makes
`step start` refuse until the artifacts exist for the session — supplied by a passing
produces gate during a step of the producing stage — and an artifact no stage produces is
refused when the profile loads. Real processes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, write
from tests.session.conftest import CHECK, lock_ready

Correx = Callable[..., CliResult]
PROFILE = """\
version = 1

[commands]
test = "python3 check.py"

[expectations]
test = ["test"]

[stages.analyze]
build_expectation = "test"
writes = ["notes/**"]
produces = ["analysis"]

[stages.implement]
build_expectation = "test"
writes = ["src/**"]
consumes = ["analysis"]
"""


def plan_step(step_id: str, stage: str, writes: list[str]) -> dict[str, Any]:
    return {"id": step_id, "stage": stage, "writes": writes,
            "expected_outputs": [f"{step_id} works"], "checks": ["test"],
            "verification_map": [{"output": 0, "evidence": [{"check": 0}]}],
            "dependencies": []}


@pytest.fixture
def staged(make_repo: Callable[..., Path], tmp_path: Path, cli: Correx) -> Path:
    """A session whose S2 (implement) consumes the analysis S1 (analyze) produces; S2 does
    not depend on S1, so only its inputs hold it back."""
    root = make_repo("staged", files={".correx.toml": PROFILE, "check.py": CHECK,
                                      "src/__init__.py": "", "notes/.keep": ""})
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "id": "staged", "risk": "low", "steps": [
        plan_step("S1", "analyze", ["notes/analysis.md"]),
        plan_step("S2", "implement", ["src/a.py"])]}))
    locked = lock_ready(cli, root, plan, "--session", "staged-1")
    assert locked.code == 0, locked
    (tmp_path / "analysis.json").write_text(json.dumps({"requirements": ["retry twice"]}))
    return root


def test_a_consuming_step_starts_only_after_the_producing_stage_supplied_its_artifact(
        staged: Path, correx: Correx, tmp_path: Path) -> None:
    early = correx(staged, "step", "start", "S2")
    assert early.code == 1, early
    assert "step S2 (stage implement) consumes artifacts the session staged-1 does not " \
           "hold yet: analysis (produced by stage analyze)" in early.stderr, early
    assert correx(staged, "step", "start", "S1").code == 0
    write(staged, "notes/analysis.md", "retry twice\n")
    produced = correx(staged, "verify", "--artifact",
                      f"analysis={tmp_path / 'analysis.json'}")
    assert produced.code == 0 and "step S1 verified" in produced.stdout, produced
    started = correx(staged, "step", "start", "S2")
    assert started.code == 0, started


def test_an_artifact_gated_outside_a_producing_step_does_not_count(
        staged: Path, correx: Correx, tmp_path: Path) -> None:
    gated = correx(staged, "gate", "--stage", "analyze", "--session", "staged-1",
                   "--artifact", f"analysis={tmp_path / 'analysis.json'}")
    assert gated.code == 0, gated  # recorded in the session, but by no step of analyze
    refused = correx(staged, "step", "start", "S2")
    assert refused.code == 1 and "analysis (produced by stage analyze)" in refused.stderr


def test_a_consumed_artifact_no_stage_produces_is_refused_at_load(
        make_repo: Callable[..., Path], correx: Correx) -> None:
    profile = PROFILE.replace('consumes = ["analysis"]', 'consumes = ["analysis", "design"]')
    root = make_repo("unknown", files={".correx.toml": profile, "check.py": CHECK})
    result = correx(root, "verify")
    assert result.code == 2, result
    assert 'stages.implement.consumes[1]: unknown artifact "design": no stage produces it' \
        in result.stderr, result
