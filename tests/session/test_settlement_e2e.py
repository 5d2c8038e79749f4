"""The one settlement path, as real processes: a two-step plan whose S1 fails its own plan
check, then the stage's static-analysis gate, then passes both; S2 changes a path outside
its declared writes (PATH_OUTSIDE_MANIFEST). And a clean gate result already recorded for
the state key is reused, not rerun."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, write
from tests.session.conftest import CHECK, lock_ready, status, steps_of

PROFILE = """\
version = 1

[commands]
test = "python3 check.py"
lint = "python3 lint.py"

[expectations]
test = ["test"]

[stages.implement]
build_expectation = "test"
writes = ["src/**"]
max_attempts = 5
static_analysis = ["python3 static.py"]
"""

LINT = """\
import pathlib
import sys

bad = [p for p in sorted(pathlib.Path("src").glob("*.py")) if "LINT" in p.read_text()]
for path in bad:
    print(f"lint: {path} has a LINT marker")
sys.exit(1 if bad else 0)
"""

STATIC = """\
import os
import pathlib
import sys

counter = os.environ.get("STATIC_RUNS")
if counter:
    with open(counter, "a") as runs:
        runs.write("run\\n")
bad = [p for p in sorted(pathlib.Path("src").glob("*.py")) if "STATIC" in p.read_text()]
for path in bad:
    print(f"{path}:1:1: E999 static analysis objects")
sys.exit(1 if bad else 0)
"""


def two_step(step_id: str, writes: list[str], deps: list[str]) -> dict[str, Any]:
    """A step whose own plan checks are the build's test and the lint the stage does not run."""
    return {"id": step_id, "stage": "implement", "writes": writes,
            "expected_outputs": [f"{step_id} works"], "checks": ["test", "lint"],
            "verification_map": [{"output": 0, "evidence": [{"check": 0}, {"check": 1}]}],
            "dependencies": [{"step": d, "requires": [0]} for d in deps]}


TWO_STEPS = [two_step("S1", ["src/a.py"], []), two_step("S2", ["src/b.py"], ["S1"])]


@pytest.fixture
def gated(make_repo: Callable[..., Path]) -> Path:
    return make_repo("gated", files={".correx.toml": PROFILE, "check.py": CHECK,
                                     "lint.py": LINT, "static.py": STATIC,
                                     "src/__init__.py": ""})


def failed_event(correx: Callable[..., CliResult], root: Path, session: str) -> dict[str, Any]:
    """The session's latest `step_failed` event, from replay."""
    replayed = correx(root, "replay", "--session", session, "--json")
    assert replayed.code == 0, replayed
    events = json.loads(replayed.stdout)["events"]
    return [e for e in events if e["kind"] == "step_failed"][-1]


def test_step_settles_only_when_its_checks_gates_and_writes_all_hold(
        gated: Path, plans, correx) -> None:
    locked = lock_ready(correx, gated, plans("two", TWO_STEPS, "two"))
    assert locked.code == 0, locked
    session = locked.stdout.strip()
    assert correx(gated, "step", "start", "S1").code == 0

    write(gated, "src/a.py", "A = 1  # LINT\n")  # the build passes, the step's lint does not
    lint = correx(gated, "verify")
    assert lint.code == 1, lint
    assert "lint: src/a.py has a LINT marker" in lint.stdout + lint.stderr
    failed = failed_event(correx, gated, session)
    assert failed["part"] == "check:lint"
    assert "lint: src/a.py has a LINT marker" in failed["feedback"]
    assert steps_of(status(correx, gated, session))["S1"] == ("failed", 1)

    write(gated, "src/a.py", "A = 1  # STATIC\n")  # lint and build pass, the gate does not
    gate = correx(gated, "verify")
    assert gate.code == 1, gate
    assert "E999 static analysis objects" in gate.stdout + gate.stderr
    failed = failed_event(correx, gated, session)
    assert failed["part"] == "gate:static_analysis"
    assert "src/a.py:1:1: E999" in failed["feedback"]
    assert steps_of(status(correx, gated, session))["S1"] == ("failed", 2)

    write(gated, "src/a.py", "A = 1\n")
    passed = correx(gated, "verify", "--json")
    assert passed.code == 0, passed
    document = json.loads(passed.stdout)
    assert "step S1 verified" in document["summary"]
    observation = document["event"]
    assert (observation["step"], observation["writes"]) == ("S1", ["src/a.py"])
    assert [c["name"] for c in observation["commands"]] == ["test", "lint"]

    assert correx(gated, "step", "start", "S2").code == 0
    write(gated, "src/b.py", "B = 2\n")
    write(gated, "src/extra.py", "E = 3\n")  # not in S2's writes
    outside = correx(gated, "verify")
    assert outside.code == 1, outside
    assert "PATH_OUTSIDE_MANIFEST" in outside.stdout and "src/extra.py" in outside.stdout
    failed = failed_event(correx, gated, session)
    assert (failed["part"], failed["rule"], failed["paths"]) == \
        ("write_evidence", "PATH_OUTSIDE_MANIFEST", ["src/extra.py"])
    assert steps_of(status(correx, gated, session))["S2"] == ("failed", 1)

    (gated / "src/extra.py").unlink()
    finished = correx(gated, "verify")
    assert finished.code == 0 and "session completed" in finished.stdout, finished


def test_a_check_naming_an_expectation_runs_that_expectation_s_commands(
        make_repo, plans, correx) -> None:
    """`checks = ["test", "strict", "nothing"]`: `strict` is an expectation running lint, so
    lint settles the step too; `nothing` is an expectation without commands, adding none."""
    profile = PROFILE.replace('test = ["test"]\n', 'test = ["test"]\nstrict = ["lint"]\n'
                                                  'nothing = []\n')
    root = make_repo("checked", files={".correx.toml": profile, "check.py": CHECK,
                                       "lint.py": LINT, "static.py": STATIC,
                                       "src/__init__.py": ""})
    step = {**two_step("S1", ["src/a.py"], []), "checks": ["test", "strict", "nothing"]}
    locked = lock_ready(correx, root, plans("checked", [step], "checked"))
    assert locked.code == 0, locked
    session = locked.stdout.strip()
    assert correx(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "A = 1  # LINT\n")
    assert correx(root, "verify").code == 1
    failed = failed_event(correx, root, session)
    assert failed["part"] == "check:lint"
    write(root, "src/a.py", "A = 1\n")
    passed = correx(root, "verify", "--json")
    assert passed.code == 0, passed
    observation = json.loads(passed.stdout)["event"]
    assert [c["name"] for c in observation["commands"]] == ["test", "lint"]
    assert steps_of(status(correx, root, session))["S1"] == ("verified", 2)


def test_a_clean_gate_result_for_the_state_key_is_reused(gated: Path, plans, correx,
                                                         tmp_path: Path) -> None:
    runs = tmp_path / "static-runs.txt"
    env = {"STATIC_RUNS": str(runs)}
    assert lock_ready(correx, gated, plans("two", TWO_STEPS, "two")).code == 0
    assert correx(gated, "step", "start", "S1").code == 0
    write(gated, "src/a.py", "A = 1\n")
    assert correx(gated, "gate", "--stage", "implement", env=env).code == 0
    assert runs.read_text().count("run") == 1
    passed = correx(gated, "verify", env=env)
    assert passed.code == 0 and "step S1 verified" in passed.stdout, passed
    assert runs.read_text().count("run") == 1  # cited, not run again


def test_a_clean_gate_result_from_another_environment_is_run_again(
        gated: Path, plans, correx, tmp_path: Path) -> None:
    """The gate passed under a stub `python3` first on PATH (it ran nothing): the
    settlement under the real interpreter does not cite it, it runs the analysis."""
    runs = tmp_path / "static-runs.txt"
    stub = tmp_path / "stub-bin"
    stub.mkdir()
    write(stub, "python3", "#!/bin/sh\nexit 0\n").chmod(0o755)
    stubbed = {"STATIC_RUNS": str(runs), "PATH": f"{stub}{os.pathsep}{os.environ['PATH']}"}
    assert lock_ready(correx, gated, plans("two", TWO_STEPS, "two")).code == 0
    assert correx(gated, "step", "start", "S1").code == 0
    write(gated, "src/a.py", "A = 1\n")
    assert correx(gated, "gate", "--stage", "implement", env=stubbed).code == 0
    assert not runs.exists()  # the stub "passed" without analysing anything
    passed = correx(gated, "verify", env={"STATIC_RUNS": str(runs)})
    assert passed.code == 0 and "step S1 verified" in passed.stdout, passed
    assert runs.read_text().count("run") == 1  # run, not cited


def test_artifacts_outside_a_session_are_a_usage_error(gated: Path, correx) -> None:
    result = correx(gated, "verify", "--expect", "test", "--artifact", "brief=brief.json")
    assert result.code == 2, result
    assert "--artifact" in result.stderr and "no session is selected" in result.stderr
