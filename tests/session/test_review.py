"""The strict review of a guarded plan's steps (seed 003 INV-6, acceptance 8), as real
processes with real identities: a settled step awaits review in status, list and report;
its worker cannot review it (by identity, by alias, by runtime name); another identity's
approval verifies it; a rejection sends it back as a failed attempt with the reason as
feedback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, git, write
from tests.session.conftest import lock_ready, status, steps_of

Correx = Callable[..., CliResult]
GRACE = {"GIT_AUTHOR_NAME": "Grace Reviewer", "GIT_AUTHOR_EMAIL": "grace@example.test",
         "GIT_COMMITTER_NAME": "Grace Reviewer", "GIT_COMMITTER_EMAIL": "grace@example.test"}
SESSION = "guarded-1"


def guarded_step(step_id: str, writes: list[str], deps: list[str]) -> dict[str, Any]:
    """A step whose output is proven by the test check and its risk-audit obligation."""
    return {"id": step_id, "stage": "implement", "writes": writes,
            "expected_outputs": [f"{step_id} works"], "checks": ["test"],
            "verification_map": [{"output": 0, "evidence": [
                {"check": 0}, {"plan-risk-proof": f"{step_id} regresses"}]}],
            "dependencies": [{"step": d, "requires": [0]} for d in deps]}


@pytest.fixture
def guarded(project: Path, tmp_path: Path, correx: Correx) -> Path:
    """The project with a guarded two-step plan authorized by Ada, audited by Grace and
    locked as session guarded-1 (S2 depends on S1)."""
    plan = tmp_path / "guarded.json"
    plan.write_text(json.dumps({
        "version": 1, "id": "guarded", "risk": "guarded",
        "steps": [guarded_step("S1", ["src/a.py"], []), guarded_step("S2", ["src/b.py"], ["S1"])],
        "risk_audit": {"proofs": [{"step": s, "failure_mode": f"{s} regresses"}
                                  for s in ("S1", "S2")]}}))
    assert correx(project, "plan", "authorize", str(plan)).code == 0
    audited = correx(project, "plan", "audit", str(plan), env=GRACE)
    assert audited.code == 0, audited
    locked = lock_ready(correx, project, plan, "--session", SESSION)
    assert locked.code == 0, locked
    return project


def settle_s1(correx: Correx, root: Path, env: dict[str, str] | None = None) -> CliResult:
    """Ada starts S1, writes it, and verifies: every part passes."""
    started = correx(root, "step", "start", "S1", env=env)
    assert started.code == 0, started
    write(root, "src/a.py", "VALUE = 1\n")
    return correx(root, "verify", env=env)


def review(correx: Correx, root: Path, decision: str, reason: str = "read the diff",
           env: dict[str, str] | None = None) -> CliResult:
    return correx(root, "step", "review", "S1", f"--{decision}", "--reason", reason, env=env)


def test_a_settled_guarded_step_awaits_review_in_status_list_and_report(
        guarded: Path, correx: Correx) -> None:
    settled = settle_s1(correx, guarded)
    assert settled.code == 0 and "step S1 passed and awaits review" in settled.stdout, settled
    assert steps_of(status(correx, guarded, SESSION))["S1"] == ("awaiting_review", 1)
    text = correx(guarded, "session", "status")
    assert text.code == 0 and "awaiting_review" in text.stdout, text
    listed = correx(guarded, "session", "list", "--json")
    [summary] = json.loads(listed.stdout)["sessions"]
    assert summary["awaiting_review"] == "S1" and summary["active_step"] == "S1"
    assert "awaiting_review: step S1" in correx(guarded, "session", "list").stdout
    git(guarded, "add", "-A")
    git(guarded, "commit", "-q", "-m", "S1")  # the commit's tree is the settled state key
    report = json.loads(correx(guarded, "report", "--json").stdout)
    [outcome] = report["commits"][-1]["sessions"]
    assert outcome["awaiting_review"] == "S1", outcome
    assert "step S1 awaiting_review" in correx(guarded, "report").stdout


def test_a_step_awaiting_review_is_neither_settled_again_nor_followed(
        guarded: Path, correx: Correx) -> None:
    assert settle_s1(correx, guarded).code == 0
    again = correx(guarded, "verify")
    assert again.code == 1 and "awaits review" in again.stderr, again
    next_step = correx(guarded, "step", "start", "S2")
    assert next_step.code == 1 and "awaits review" in next_step.stderr, next_step
    assert steps_of(status(correx, guarded, SESSION))["S1"] == ("awaiting_review", 1)


def test_the_worker_may_not_review_its_own_step(guarded: Path, correx: Correx) -> None:
    assert settle_s1(correx, guarded).code == 0
    own = review(correx, guarded, "approve")
    assert own.code == 1, own
    assert "Ada Tester <ada@example.test> may not review step S1" in own.stderr, own
    alias = review(correx, guarded, "approve",
                   env={**GRACE, "GIT_AUTHOR_EMAIL": "ADA@example.test"})
    assert alias.code == 1 and "may not review step S1" in alias.stderr, alias
    assert steps_of(status(correx, guarded, SESSION))["S1"] == ("awaiting_review", 1)


def test_a_runtime_may_not_review_its_own_step_under_another_identity(
        guarded: Path, correx: Correx) -> None:
    worker = {"CORREX_RUNTIME": "worker-1"}
    assert settle_s1(correx, guarded, env=worker).code == 0
    disguised = review(correx, guarded, "approve", env={**GRACE, **worker})
    assert disguised.code == 1, disguised
    assert "the runtime 'worker-1' worked on step S1" in disguised.stderr, disguised


def test_another_identity_approves_and_the_step_is_verified(guarded: Path,
                                                           correx: Correx) -> None:
    assert settle_s1(correx, guarded).code == 0
    approved = review(correx, guarded, "approve", env=GRACE)
    assert approved.code == 0, approved
    assert "step S1 approved by Grace Reviewer <grace@example.test>" in approved.stdout
    assert "step S1 verified" in approved.stdout
    assert steps_of(status(correx, guarded, SESSION))["S1"] == ("verified", 1)
    assert correx(guarded, "step", "start", "S2").code == 0
    twice = review(correx, guarded, "approve", env=GRACE)
    assert twice.code == 1 and "not awaiting review" in twice.stderr, twice
    write(guarded, "src/b.py", "VALUE = 2\n")
    assert correx(guarded, "verify").code == 0
    last = correx(guarded, "step", "review", "S2", "--approve", "--reason", "ok", env=GRACE)
    assert last.code == 0 and "session completed" in last.stdout, last
    assert status(correx, guarded, SESSION)["state"]["status"] == "completed"


def test_a_rejection_sends_the_step_back_with_the_reason_as_feedback(
        guarded: Path, correx: Correx) -> None:
    assert settle_s1(correx, guarded).code == 0
    rejected = review(correx, guarded, "reject", "the empty input is not handled", env=GRACE)
    assert rejected.code == 0, rejected
    assert "step S1 failed at review (attempt 1 of 2): continue-fix" in rejected.stdout
    state = status(correx, guarded, SESSION)["state"]
    [s1] = [s for s in state["steps"] if s["id"] == "S1"]
    assert (s1["status"], s1["attempts"]) == ("failed", 1)
    assert "the empty input is not handled" in s1["feedback"]
    assert state["active_step"] == "S1"  # the agent fixes it within its budget
    failed = _events(correx, guarded, "step_failed")[-1]
    assert failed["part"] == "review" and failed["route"] == "continue-fix", failed
    write(guarded, "src/a.py", "VALUE = 2\n")
    assert correx(guarded, "verify").code == 0
    assert steps_of(status(correx, guarded, SESSION))["S1"] == ("awaiting_review", 2)
    assert review(correx, guarded, "approve", env=GRACE).code == 0
    assert steps_of(status(correx, guarded, SESSION))["S1"] == ("verified", 2)


def test_review_needs_a_decision_and_a_step_awaiting_it(guarded: Path,
                                                       correx: Correx) -> None:
    undecided = correx(guarded, "step", "review", "S1", "--reason", "x", env=GRACE)
    assert undecided.code == 2 and "--approve or --reject" in undecided.stderr, undecided
    early = review(correx, guarded, "approve", env=GRACE)
    assert early.code == 1 and "S1 is pending, not awaiting review" in early.stderr, early


def _events(correx: Correx, root: Path, kind: str) -> list[dict[str, Any]]:
    replay = correx(root, "replay", "--session", SESSION, "--json")
    assert replay.code == 0, replay
    return [e for e in json.loads(replay.stdout)["events"] if e["kind"] == kind]
