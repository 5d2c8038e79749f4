"""The whole loop as real processes: lock → S1 fails then passes → S2 refused on a dirty
workspace → the operator adopts the change → re-verify → S2 exhausts its attempts →
controller_limit pause → resume refused → re-plan (still paused) → resume with a budget →
finish; then replay in a bare clone holding only the ledger ref."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import git, write
from tests.session.conftest import THREE_STEPS, lock_ready, status, step, steps_of


def test_three_step_plan_runs_to_completion_through_failure_escalation_and_replan(
        project: Path, plans, correx, tmp_path: Path) -> None:
    first = plans("v1", THREE_STEPS)
    locked = lock_ready(correx, project, first)
    assert locked.code == 0, locked
    session = locked.stdout.strip()
    assert git(project, "config", "correx.session").strip() == session

    assert correx(project, "step", "start", "S1").code == 0
    write(project, "src/a.py", "BUG = 1\n")
    failed = correx(project, "verify", "--json")
    assert failed.code == 1, failed
    assert "FAILED: src/a.py has a bug" in failed.stderr  # fed back verbatim
    document = status(correx, project, session)
    assert steps_of(document)["S1"] == ("failed", 1)
    assert "FAILED: src/a.py has a bug" in document["state"]["steps"][0]["feedback"]

    write(project, "src/a.py", "A = 1\n")
    passed = correx(project, "verify")
    assert passed.code == 0, passed
    assert "step S1 verified" in passed.stdout

    write(project, "notes.txt", "scratch\n")  # the workspace moves after verification
    refused = correx(project, "step", "start", "S2")
    assert refused.code == 1, refused
    assert "notes.txt" in refused.stderr and "session adopt" in refused.stderr
    assert status(correx, project, session)["workspace"]["baseline_valid"] is False
    adopted = correx(project, "session", "adopt", "--reason", "keep the scratch notes")
    assert adopted.code == 0, adopted
    unverified = correx(project, "step", "start", "S2")  # adopted, but not verified
    assert unverified.code == 1 and "git correx verify" in unverified.stderr, unverified
    assert correx(project, "verify").code == 0  # no active step: a new baseline
    assert correx(project, "step", "start", "S2").code == 0

    write(project, "src/b.py", "BUG = 2\n")
    assert correx(project, "verify").code == 1
    exhausted = correx(project, "verify")
    assert exhausted.code == 1
    assert "controller_limit" in exhausted.stdout
    document = status(correx, project, session)
    assert document["state"]["status"] == "paused"
    assert document["state"]["pause"]["cause"] == "controller_limit"
    assert steps_of(document)["S2"] == ("blocked", 2)

    resume = correx(project, "resume", "--reason", "try again")
    assert resume.code == 1 and "controller limit" in resume.stderr, resume
    assert correx(project, "step", "start", "S3").code == 1  # paused: nothing starts

    second = plans("v2", [THREE_STEPS[0],
                          step("S2", ["src/b.py"], deps=["S1"], output="S2 works, smaller"),
                          THREE_STEPS[2]])
    replanned = lock_ready(correx, project, second, "--session", session, "--replaces",
                           str(first))
    assert replanned.code == 0, replanned
    document = status(correx, project, session)
    assert document["state"]["status"] == "paused"  # a re-plan never lifts an escalation
    assert steps_of(document) == {"S1": ("verified", 2), "S2": ("pending", 0),
                                  "S3": ("pending", 0)}  # the re-plan used no attempt
    assert correx(project, "resume", "--reason", "replanned", "--budget", "3").code == 0

    (project / "src/b.py").unlink()  # back to the known-good baseline
    assert correx(project, "step", "start", "S2").code == 0
    write(project, "src/b.py", "B = 2\n")
    assert correx(project, "verify").code == 0
    assert correx(project, "step", "start", "S3").code == 0
    write(project, "src/c.py", "C = 3\n")
    finished = correx(project, "verify")
    assert finished.code == 0 and "session completed" in finished.stdout, finished

    final = status(correx, project, session)
    assert final["state"]["status"] == "completed"
    assert {s["status"] for s in final["state"]["steps"]} == {"verified"}

    bare = tmp_path / "ledger-only.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(bare, "fetch", "-q", str(project), "refs/notes/correx:refs/notes/correx")
    replayed = correx(bare, "replay", "--session", session, "--json")
    assert replayed.code == 0, replayed
    assert json.loads(replayed.stdout)["state"] == final["state"]
    here = correx(project, "replay", "--session", session, "--json")
    assert here.stdout == replayed.stdout
