"""Re-planning a running session: `plan lock NEW --session ID --replaces OLD`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import write
from tests.session.conftest import THREE_STEPS, lock_ready, state_key, status, step, steps_of

V2 = [THREE_STEPS[0], step("S2", ["src/b.py"], deps=["S1"], output="smaller S2"),
      THREE_STEPS[2]]


def test_replan_supersedes_the_plan_and_keeps_verified_steps(locked, plans, cli) -> None:
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "A = 1\n")
    assert cli(root, "verify", "-q").code == 0
    result = lock_ready(cli, root, plans("v2", V2), "--session", session, "--replaces",
                        str(plans("v1", THREE_STEPS)), "--json")
    assert result.code == 0, result
    state = status(cli, root, session)["state"]
    assert len(state["plans"]) == 2 and state["plan"] == state["plans"][1]
    assert steps_of({"state": state})["S1"] == ("verified", 1)


def test_replan_ends_a_semantic_terminal_pause(locked, plans, cli, tmp_path: Path) -> None:
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "BUG\n")
    assert cli(root, "verify", "-q").code == 1
    claim = tmp_path / "claim.json"
    claim.write_text(json.dumps({"class": "observed_fact", "provider": "verification",
                                 "subject": state_key(root), "fact": "result",
                                 "expected": "fail"}))
    assert cli(root, "pause", "--claim", str(claim)).code == 0
    assert lock_ready(cli, root, plans("v2", V2), "--session", session, "--replaces",
                      str(plans("v1", THREE_STEPS))).code == 0
    state = status(cli, root, session)["state"]
    assert state["status"] == "active" and state["pause"] is None
    assert state["active_step"] is None
    assert steps_of({"state": state})["S1"] == ("failed", 1)  # unchanged: its attempt carried


def test_replan_refuses_another_old_plan(locked, plans, cli) -> None:
    root, session = locked
    result = lock_ready(cli, root, plans("v2", V2), "--session", session, "--replaces",
                        str(plans("other", V2)))
    assert result.code == 1 and "--replaces must name the session's plan" in result.stderr


def test_replan_waits_for_an_administrative_pause_to_be_resumed(locked, plans, cli) -> None:
    root, session = locked
    assert cli(root, "pause", "--kind", "administrative", "--reason", "hold").code == 0
    result = lock_ready(cli, root, plans("v2", V2), "--session", session, "--replaces",
                        str(plans("v1", THREE_STEPS)))
    assert result.code == 1 and "resume it first" in result.stderr


def test_replan_needs_what_a_lock_needs(locked, plans, cli) -> None:
    root, session = locked
    result = cli(root, "plan", "lock", str(plans("v2", V2)), "--session", session,
                 "--replaces", str(plans("v1", THREE_STEPS)), "--json")
    assert result.code == 1, result
    codes = {m["code"] for m in json.loads(result.stdout)["missing"]}
    assert codes == {"validation_missing", "grounding_missing"}
    assert status(cli, root, session)["state"]["revision"] == 2


def test_replan_names_its_session(locked, plans, cli) -> None:
    root, _ = locked
    result = cli(root, "plan", "lock", str(plans("v2", V2)), "--replaces",
                 str(plans("v1", THREE_STEPS)))
    assert result.code == 2 and "--session" in result.stderr
