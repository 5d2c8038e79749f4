"""The fold fails closed on malformed session events and loads pre-provenance pauses."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gitcorrex.git.repository import discover
from gitcorrex.model.plan import Plan
from gitcorrex.model.session_state import StepStatus
from gitcorrex.session.replan import kept_steps
from gitcorrex.session.state import session_state
from tests.session.conftest import THREE_STEPS, append, status, step


def receipt(**changes: Any) -> dict[str, Any]:
    observation = {"provider": "verification", "version": "1", "subject": "s", "fact": "result",
                   "value": "fail", "observed_at": "2026-01-01T00:00:00Z", "source": "e"}
    return {"claim_class": "observed_fact", "provider": "verification", "subject": "s",
            "fact": "result", "expected": "fail", "observations": [observation],
            "decided_at": "2026-01-01T00:00:01Z", "revision": 2, "context": "c", **changes}


@pytest.mark.parametrize("fields", [
    {"cause": "semantic_terminal", "reason": "r", "receipt": receipt(subject="x" * 1025)},
    {"cause": "semantic_terminal", "reason": "r", "receipt": receipt(observations=[])},
    {"cause": "semantic_terminal", "reason": "r"},
    {"cause": "administrative", "reason": "r", "receipt": receipt()},
    {"cause": "by_whim", "reason": "r"},
], ids=["oversized", "no-observation", "no-receipt", "receipt-on-admin", "unknown-cause"])
def test_a_malformed_pause_fails_the_session_closed(locked, cli, fields) -> None:
    root, session = locked
    append(root, "session_paused", session, fields)
    document = status(cli, root, session)
    state = document["state"]
    assert state["status"] == "invalid" and state["pause"]["cause"] == "malformed"
    assert state["problems"][0]["kind"] == "session_paused"
    assert cli(root, "session", "status", session).code == 1
    refused = cli(root, "step", "start", "S1")
    assert refused.code == 1 and "malformed" in refused.stderr
    assert cli(root, "resume", "--reason", "try").code == 1


def test_a_pause_from_before_provenance_loads_unattributed_and_resumes(locked, cli) -> None:
    root, session = locked
    append(root, "session_paused", session, {"reason": "old writer"})
    state = status(cli, root, session)["state"]
    assert (state["status"], state["pause"]["cause"]) == ("paused", "unattributed")
    assert cli(root, "resume", "--reason", "carry on").code == 0
    assert status(cli, root, session)["state"]["pause"] is None


def test_a_step_event_without_its_fields_is_a_problem(locked, cli) -> None:
    root, session = locked
    append(root, "step_verified", session, {"observation": None}, step="S1")
    state = status(cli, root, session)["state"]
    assert state["status"] == "invalid"
    assert state["steps"][0]["status"] == "pending"


def test_the_fold_counts_every_session_event_as_a_revision(locked) -> None:
    root, session = locked
    append(root, "precondition_clarified", session, {"path": "p", "reason": "r"})
    state = session_state(discover(root), session)
    assert state.revision == 3 and state.clarified == ["p"]


def test_replan_keeps_only_unchanged_verified_steps_whose_dependencies_are_kept(
        locked) -> None:
    root, session = locked
    repo = discover(root)
    old = Plan.model_validate({"version": 1, "id": "p", "risk": "low", "steps": THREE_STEPS})
    changed_s1 = step("S1", ["src/a.py"], output="S1 works, differently")
    new = Plan.model_validate({"version": 1, "id": "p", "risk": "low",
                               "steps": [changed_s1, *THREE_STEPS[1:]]})
    state = session_state(repo, session)
    verified = replace(state, steps=[replace(s, status=StepStatus.VERIFIED)
                                     for s in state.steps])
    assert kept_steps(old, old, verified) == ["S1", "S2", "S3"]
    assert kept_steps(old, new, verified) == []  # S2, S3 depend on the changed S1
    assert kept_steps(old, old, state) == []  # nothing verified, nothing kept


def test_replay_of_a_session_prints_its_folded_state(locked, cli) -> None:
    import json

    root, session = locked
    replayed = json.loads(cli(root, "replay", "--session", session, "--json").stdout)
    assert replayed["state"] == status(cli, root, session)["state"]
    assert "state" not in json.loads(cli(root, "replay", "--json").stdout)




def test_the_session_config_key_spelled_for_the_hooks_matches_its_owner() -> None:
    from gitcorrex.hooks import SESSION_CONFIG
    from gitcorrex.session import selection

    assert SESSION_CONFIG == selection.SESSION_CONFIG


def test_a_line_that_is_not_an_event_fails_the_session_closed(locked, cli) -> None:
    import json

    from gitcorrex.model.events import session_object_oid
    from tests.conftest import git

    root, session = locked
    git(root, "notes", "--ref", "correx", "append", "-m", '{"kind": "session_resumed", trunc',
        session_object_oid(session))
    document = status(cli, root, session)
    assert document["state"]["status"] == "invalid"
    assert {p["kind"] for p in document["state"]["problems"]} == {"ledger"}
    assert cli(root, "step", "start", "S1").code == 1
    replayed = json.loads(cli(root, "replay", "--session", session, "--json").stdout)
    assert replayed["state"] == document["state"]


def test_replay_text_names_the_step_and_its_outcome(locked, cli) -> None:
    from tests.conftest import write

    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "BUG\n")
    assert cli(root, "verify", "-q").code == 1
    text = cli(root, "replay", "--session", session).stdout
    assert "step_started S1" in text
    assert "step_failed S1 result=fail attempts=1 max_attempts=2 route=continue-fix" in text
