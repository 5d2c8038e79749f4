"""Declared blocker edges (seed 004): a plan step declares the blocker claims that may pause
it terminally; `pause --claim` is admitted only for a declared edge, and `session list`
shows each session's pause cause and admission (real processes)."""

from __future__ import annotations

import json
from pathlib import Path

from gitcorrex.model.plan import Plan, plan_document
from tests.conftest import git, write
from tests.session.conftest import lock_ready, state_key, status, step

EDGE = {"class": "observed_fact", "provider": "verification", "fact": "result"}


def failing_s1(correx, project: Path, plans, blockers: list[dict[str, str]]) -> str:
    """A one-step plan locked, S1 started and observed failing; the session id."""
    session = lock_ready(correx, project, plans("p", [step("S1", ["src/a.py"],
                                                           blockers=blockers)])).stdout.strip()
    assert correx(project, "step", "start", "S1").code == 0
    write(project, "src/a.py", "BUG = 1\n")
    assert correx(project, "verify").code == 1
    return session


def claim(tmp_path: Path, project: Path) -> str:
    path = tmp_path / "claim.json"
    path.write_text(json.dumps({**EDGE, "subject": state_key(project), "expected": "fail"}))
    return str(path)


def test_an_undeclared_claim_is_not_declared_and_writes_nothing(project: Path, plans,
                                                                correx, tmp_path) -> None:
    session = failing_s1(correx, project, plans, blockers=[])
    before = git(project, "rev-parse", "refs/notes/correx")
    result = correx(project, "pause", "--claim", claim(tmp_path, project), "--json")
    assert result.code == 1, result
    document = json.loads(result.stdout)
    assert document["outcome"] == "not_declared" and document["events"] == []
    assert "step S1 of plan three declares no blocker edge observed_fact verification:result" \
        in document["detail"]
    assert git(project, "rev-parse", "refs/notes/correx") == before  # nothing written
    assert status(correx, project, session)["state"]["status"] == "active"


def test_a_declared_edge_admits_and_session_list_shows_cause_and_admission(
        project: Path, plans, correx, tmp_path) -> None:
    session = failing_s1(correx, project, plans, blockers=[EDGE])
    confirmed = correx(project, "pause", "--claim", claim(tmp_path, project))
    assert confirmed.code == 0 and confirmed.stdout.startswith("confirmed"), confirmed
    receipt = status(correx, project, session)["state"]["pause"]["receipt"]
    assert receipt["declared_by"] == "S1"

    listed = correx(project, "session", "list")
    assert listed.code == 0, listed
    assert "  paused: semantic_terminal: confirmed verification:result = 'fail'" in listed.stdout
    assert "  admitted on: observed_fact verification:result = 'fail' on " in listed.stdout
    assert "edge of step S1" in listed.stdout
    [summary] = json.loads(correx(project, "session", "list", "--json").stdout)["sessions"]
    assert summary["pause_cause"] == "semantic_terminal"
    assert "edge of step S1" in summary["admission"]


def test_session_list_shows_an_operator_pause_without_admission(project: Path, plans, correx,
                                                                tmp_path) -> None:
    lock_ready(correx, project, plans("p", [step("S1", ["src/a.py"])]))
    assert correx(project, "pause", "--kind", "administrative", "--reason", "hold").code == 0
    [summary] = json.loads(correx(project, "session", "list", "--json").stdout)["sessions"]
    assert (summary["pause_cause"], summary["pause_reason"], summary["admission"]) == \
        ("administrative", "hold", None)
    assert "  paused: administrative: hold" in correx(project, "session", "list").stdout


def test_a_plan_without_edges_keeps_its_identity() -> None:
    document = {"version": 1, "id": "p", "risk": "low",
                "steps": [step("S1", ["src/a.py"])]}
    assert "blockers" not in plan_document(Plan.model_validate(document))["steps"][0]
    edged = {**document, "steps": [step("S1", ["src/a.py"], blockers=[EDGE])]}
    assert plan_document(Plan.model_validate(edged))["steps"][0]["blockers"] == [EDGE]
