"""`split-required` has a producer: `plan route PLAN --step S --split --reason TEXT`, by a git
identity. A routed step cannot start, the plan is not accepted again, and a replacement
plan that splits the task is the way on (real processes)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.session.conftest import THREE_STEPS, lock_ready, step

SPLIT = [step("S1a", ["src/a.py"]), step("S1b", ["src/a2.py"], deps=["S1a"]),
         step("S2", ["src/b.py"], deps=["S1b"]), step("S3", ["src/c.py"], deps=["S2"])]


def test_a_step_routed_split_required_cannot_start(project: Path, plans, correx) -> None:
    first = plans("v1", THREE_STEPS)
    session = lock_ready(correx, project, first).stdout.strip()
    routed = correx(project, "plan", "route", str(first), "--step", "S1", "--split",
                    "--reason", "S1 mixes schema and runtime", "--json")
    assert routed.code == 0, routed
    event = json.loads(routed.stdout)["event"]
    assert (event["kind"], event["route"], event["email"]) == \
        ("plan_routed", "split-required", "ada@example.test")

    refused = correx(project, "step", "start", "S1")
    assert refused.code == 1, refused
    assert "routed split-required by Ada Tester" in refused.stderr
    assert "S1 mixes schema and runtime" in refused.stderr
    validated = correx(project, "plan", "validate", str(first), "--json")
    assert validated.code == 1
    document = json.loads(validated.stdout)
    assert document["decision"] == "split-required"
    assert [(f["code"], f["step"]) for f in document["findings"]] == [("split_required", "S1")]

    again = correx(project, "plan", "route", str(first), "--step", "S1", "--split",
                   "--reason", "once more")
    assert again.code == 0 and "already routed" in again.stdout, again
    assert lock_ready(correx, project, plans("v2", SPLIT), "--session", session,
                      "--replaces", str(first)).code == 0
    assert correx(project, "step", "start", "S1a").code == 0


def test_route_names_an_unknown_step(project: Path, plans, correx) -> None:
    result = correx(project, "plan", "route", str(plans("v1", THREE_STEPS)), "--step", "S9",
                    "--split", "--reason", "no such step")
    assert result.code == 2 and "has no step 'S9'" in result.stderr, result
    assert "steps: S1, S2, S3" in result.stderr
