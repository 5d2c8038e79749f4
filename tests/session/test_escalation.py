"""Escalations stay escalated: an exhausted step stops with `stop-escalate` and a
controller_limit pause; a re-plan carries the attempts of every unchanged step and leaves
the pause in place; only a person's recorded `resume --budget N` lifts it (real processes)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import write
from tests.session.conftest import (
    THREE_STEPS,
    append,
    lock_ready,
    status,
    step,
    steps_of,
)

V2_S2_CHANGED = [THREE_STEPS[0], step("S2", ["src/b.py"], deps=["S1"], output="smaller S2"),
                 THREE_STEPS[2]]
V2_S1_CHANGED = [step("S1", ["src/a.py"], output="S1 works, smaller"), *THREE_STEPS[1:]]


def events(correx, root: Path, session: str, kind: str) -> list[dict]:
    """The session's recorded events of `kind`, from the ledger alone (`replay --json`)."""
    replayed = correx(root, "replay", "--session", session, "--json")
    assert replayed.code == 0, replayed
    return [e for e in json.loads(replayed.stdout)["events"] if e["kind"] == kind]


def exhaust_s1(correx, root: Path, session: str) -> None:
    """S1 fails twice (the implement stage's max_attempts is 2): the arbiter stops it."""
    assert correx(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "BUG = 1\n")
    assert correx(root, "verify").code == 1
    exhausted = correx(root, "verify")
    assert exhausted.code == 1 and "controller_limit" in exhausted.stdout, exhausted


def test_exhausted_step_routes_stop_escalate_and_replan_keeps_the_pause_and_attempts(
        project: Path, plans, correx) -> None:
    first = plans("v1", THREE_STEPS)
    session = lock_ready(correx, project, first).stdout.strip()
    exhaust_s1(correx, project, session)
    routes = [e["route"] for e in events(correx, project, session, "step_failed")]
    assert routes == ["continue-fix", "stop-escalate"]
    assert status(correx, project, session)["state"]["pause"]["cause"] == "controller_limit"

    replanned = lock_ready(correx, project, plans("v2", V2_S2_CHANGED), "--session", session,
                           "--replaces", str(first))
    assert replanned.code == 0, replanned
    [lock] = [e for e in events(correx, project, session, "plan_locked") if e.get("replaces")]
    assert lock["carried"] == ["S1", "S3"] and lock["kept"] == []
    state = status(correx, project, session)["state"]
    assert state["status"] == "paused" and state["pause"]["cause"] == "controller_limit"
    assert steps_of({"state": state}) == {"S1": ("blocked", 2), "S2": ("pending", 0),
                                          "S3": ("pending", 0)}

    refused = correx(project, "resume", "--reason", "replanned")
    assert refused.code == 1 and "a re-plan does not lift it" in refused.stderr, refused
    assert correx(project, "resume", "--reason", "one more try", "--budget", "3").code == 0
    assert events(correx, project, session, "session_resumed")[-1]["budget"] == 3
    (project / "src/a.py").unlink()  # back to the known-good baseline
    assert correx(project, "step", "start", "S1").code == 0
    write(project, "src/a.py", "A = 1\n")
    assert correx(project, "verify").code == 0
    assert steps_of(status(correx, project, session))["S1"] == ("verified", 3)


def test_replan_that_changes_the_escalated_step_still_needs_a_budget(project: Path, plans,
                                                                      correx) -> None:
    first = plans("v1", THREE_STEPS)
    session = lock_ready(correx, project, first).stdout.strip()
    exhaust_s1(correx, project, session)
    assert lock_ready(correx, project, plans("v2", V2_S1_CHANGED), "--session", session,
                      "--replaces", str(first)).code == 0
    state = status(correx, project, session)["state"]
    assert state["status"] == "paused"
    assert steps_of({"state": state})["S1"] == ("pending", 0)  # a changed step starts at 0
    assert correx(project, "step", "start", "S1").code == 1
    assert correx(project, "resume", "--reason", "new S1", "--budget", "3").code == 0
    assert status(correx, project, session)["state"]["status"] == "active"


def test_a_recorded_escalate_route_reads_as_stop_escalate(locked, cli) -> None:
    root, session = locked
    append(root, "step_failed", session, {
        "observation": "0" * 40, "result": "fail", "reason": None, "feedback": "old",
        "output_blob": None, "attempts": 1, "max_attempts": 1, "route": "escalate"},
        step="S1", state_key="1" * 40)
    state = status(cli, root, session)["state"]
    assert state["problems"] == [] and steps_of({"state": state})["S1"] == ("failed", 1)
    replayed = cli(root, "replay", "--session", session)
    assert "route=stop-escalate" in replayed.stdout, replayed
