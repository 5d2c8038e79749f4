"""Transitions: compare-and-swap on the revision, the admission rules of `step start`,
operator pauses and the per-cause rules of `resume`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, write
from tests.session.conftest import status, steps_of


@pytest.mark.slow
def test_sixteen_racing_step_starts_admit_exactly_one(locked: tuple[Path, str], cli) -> None:
    root, session = locked
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    argv = [sys.executable, "-m", "gitcorrex", "step", "start", "S1", "--session", session,
            "--expect-revision", "2"]
    runs = [subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE) for _ in range(16)]
    codes = [run.wait(timeout=120) for run in runs]
    errors = [run.stderr.read().decode() if run.stderr else "" for run in runs]
    assert sorted(codes) == [0] + [3] * 15, errors
    assert all("at revision 4, not 2" in text
               for code, text in zip(codes, errors, strict=True) if code == 3)
    document = status(cli, root, session)
    assert document["state"]["revision"] == 4
    assert steps_of(document)["S1"] == ("active", 0)


def test_start_refuses_a_stale_expected_revision_with_the_current_one(locked, cli) -> None:
    root, _ = locked
    result = cli(root, "step", "start", "S1", "--expect-revision", "1")
    assert result.code == 3
    assert "at revision 2, not 1" in result.stderr and "--expect-revision 2" in result.stderr


def test_start_refuses_a_step_whose_dependency_is_not_verified(locked, cli) -> None:
    root, _ = locked
    result = cli(root, "step", "start", "S2")
    assert result.code == 1 and "depends on S1" in result.stderr


def test_start_refuses_a_second_active_step_and_an_unknown_step(locked, cli) -> None:
    root, _ = locked
    assert cli(root, "step", "start", "S1").code == 0
    assert "step S1 is active" in cli(root, "step", "start", "S1").stderr
    unknown = cli(root, "step", "start", "S9")
    assert unknown.code == 1 and "no step 'S9'" in unknown.stderr


def test_start_refuses_a_workspace_that_left_the_locked_state(locked, cli) -> None:
    """Outside S1's writes: named, with the two ways on (revert, or an operator adopts)."""
    root, session = locked
    write(root, "src/extra.py", "X = 1\n")
    result = cli(root, "step", "start", "S1")
    assert result.code == 1, result
    assert "outside the writes of step S1" in result.stderr and "src/extra.py" in result.stderr
    assert "revert them" in result.stderr and "session adopt" in result.stderr
    assert status(cli, root, session)["state"]["revision"] == 2  # nothing written


def test_start_refuses_an_unverified_edit_inside_the_step_s_writes(locked, cli) -> None:
    """Inside S1's writes the edit would count as S1's, but nothing verified that state."""
    root, session = locked
    write(root, "src/a.py", "A = 0\n")
    result = cli(root, "step", "start", "S1")
    assert result.code == 1, result
    assert "carries no passing observation of a build expectation" in result.stderr, result
    assert status(cli, root, session)["state"]["revision"] == 2  # nothing written


def test_administrative_pause_blocks_starts_until_resumed(locked, cli) -> None:
    root, session = locked
    assert cli(root, "pause", "--kind", "administrative", "--reason", "lunch").code == 0
    paused = status(cli, root, session)["state"]
    assert paused["status"] == "paused" and paused["pause"]["cause"] == "administrative"
    assert "paused (administrative: lunch)" in cli(root, "step", "start", "S1").stderr
    assert cli(root, "pause", "--kind", "administrative", "--reason", "again").code == 1
    assert cli(root, "resume", "--reason", "back").code == 0
    assert cli(root, "step", "start", "S1").code == 0


def test_pause_needs_a_kind_and_reason_or_a_claim(locked, cli) -> None:
    root, _ = locked
    assert cli(root, "pause").code == 2
    assert cli(root, "pause", "--kind", "administrative").code == 2


def test_resume_refuses_a_session_that_is_not_paused(locked, cli) -> None:
    root, _ = locked
    result = cli(root, "resume", "--reason", "why")
    assert result.code == 1 and "not paused" in result.stderr


def test_controller_limit_resumes_only_with_a_raised_budget(locked, cli) -> None:
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "BUG\n")
    assert cli(root, "verify", "-q").code == 1
    assert cli(root, "verify", "-q").code == 1
    assert status(cli, root, session)["state"]["pause"]["escalation"]["max_attempts"] == 2
    assert cli(root, "resume", "--reason", "more", "--budget", "2").code == 1
    assert cli(root, "resume", "--reason", "more", "--budget", "3").code == 0
    step = status(cli, root, session)["state"]["steps"][0]
    assert (step["status"], step["attempts"], step["max_attempts"]) == ("failed", 2, 3)
    assert cli(root, "verify", "-q").code == 1  # the third attempt: escalated again
    assert status(cli, root, session)["state"]["pause"]["cause"] == "controller_limit"


def test_status_of_an_unknown_session_is_a_usage_error(project: Path, cli) -> None:
    result = cli(project, "session", "status", "nope")
    assert result.code == 2 and "no session 'nope'" in result.stderr


def test_session_list_names_each_session(locked, cli) -> None:
    root, session = locked
    result = cli(root, "session", "list")
    assert result.code == 0 and result.stdout.startswith(f"{session}  three  active")


def test_session_list_with_no_sessions_says_so_and_json_stays_empty(project: Path,
                                                                     cli) -> None:
    result = cli(project, "session", "list")
    assert result.code == 0, result
    assert result.stdout == "no sessions recorded: `git correx plan lock PLAN` starts one\n"
    as_json = cli(project, "session", "list", "--json")
    assert json.loads(as_json.stdout) == {"sessions": []}


def test_verify_of_an_active_step_refuses_another_expectation(locked, cli) -> None:
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    result = cli(root, "verify", "--expect", "notes")
    assert result.code == 2 and "stage 'implement'" in result.stderr
    assert status(cli, root, session)["state"]["revision"] == 4  # nothing recorded


def test_an_orchestration_settlement_pause_resumes(locked, cli) -> None:
    root, session = locked
    assert cli(root, "pause", "--kind", "orchestration_settlement", "--reason",
               "waiting for the other agents").code == 0
    assert status(cli, root, session)["state"]["pause"]["cause"] == "orchestration_settlement"
    assert cli(root, "resume", "--reason", "settled").code == 0


def test_status_text_says_when_the_baseline_no_longer_holds(locked, cli) -> None:
    root, session = locked
    write(root, "src/extra.py", "X = 1\n")
    text = cli(root, "session", "status").stdout
    assert text.startswith(f"session {session}: active, revision 2, plan three")
    assert "NOT valid here" in text and "re-verify" in text


def test_an_unavailable_observation_fails_the_step_too(locked, cli) -> None:
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "TOUCH = 1\n")
    assert cli(root, "verify", "-q").code == 3  # the check wrote touched.txt
    step = status(cli, root, session)["state"]["steps"][0]
    assert (step["status"], step["attempts"]) == ("failed", 1)
    replayed = cli(root, "replay", "--session", session).stdout
    assert "step_failed S1 result=unavailable attempts=1" in replayed
