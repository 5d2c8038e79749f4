"""The Stop hook: an agent may end its turn only when the changed workspace has a passing
observation of the stage's expectation on its current state key — found in the ledger, else
run by the hook (the full expectation on a completion claim or no message, the cheap
`stop_expectation` otherwise); blocks are capped per (conversation, state); never loops."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.agents.conftest import PROFILE, claude, cursor, gemini, hook, json_answer
from tests.conftest import git, run_correx, write
from tests.verify.conftest import notes_on

OBSERVED = "workspace_verification_observed"


def stop(project: Path, active: bool = False, message: str | None = None,
         conversation: str | None = None) -> bytes:
    """Claude Code's Stop payload; `message`: its `last_assistant_message` (2.1.47+; None:
    an older release that sends none)."""
    document = json.loads(claude("Stop", project))
    document["stop_hook_active"] = active
    if message is not None:
        document["last_assistant_message"] = message
    if conversation is not None:
        document["session_id"] = conversation
    return json.dumps(document).encode()


def observations(project: Path) -> list[str]:
    """The results observed on the current state, oldest first."""
    key = run_correx(project, "state").stdout.split()[0]
    return [str((event.model_extra or {})["result"]) for event in notes_on(project, key)
            if event.kind == OBSERVED]


def test_a_failing_changed_workspace_blocks_naming_the_run(project: Path) -> None:
    write(project, "src/app.py", "FAIL\n")
    answer = json_answer(hook(project, "claude-code", stop(project, message="All done.")))
    assert answer["decision"] == "block"
    reason = answer["reason"]
    assert "no passing observation of 'check'" in reason and "the Stop gate ran it" in reason
    assert "fail" in reason and "git correx verify --stage implement" in reason
    assert observations(project) == ["fail"]


def test_the_stop_gate_runs_the_check_and_a_pass_ends_the_turn(project: Path) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    result = hook(project, "claude-code", stop(project, message="Implemented and done."))
    assert (result.code, result.stdout) == (0, ""), result
    assert observations(project) == ["pass"]


def test_a_pass_already_in_the_ledger_ends_the_turn_without_running(project: Path) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    assert run_correx(project, "verify", "--stage", "implement", "--quiet").code == 0
    result = hook(project, "claude-code", stop(project))
    assert (result.code, result.stdout) == (0, ""), result
    assert observations(project) == ["pass"]  # nothing ran again


def test_stop_hook_active_lets_the_turn_end(project: Path) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    result = hook(project, "claude-code", stop(project, active=True))
    assert (result.code, result.stdout, result.stderr) == (0, "", ""), result


def test_a_failing_state_keeps_blocking(project: Path) -> None:
    write(project, "src/app.py", "FAIL\n")
    assert run_correx(project, "verify", "--stage", "implement", "--quiet").code == 1
    assert json_answer(hook(project, "claude-code", stop(project)))["decision"] == "block"


def test_nothing_changed_lets_the_turn_end(project: Path) -> None:
    result = hook(project, "claude-code", stop(project))
    assert (result.code, result.stdout) == (0, ""), result


def test_without_the_opt_in_the_turn_ends(project: Path) -> None:
    write(project, ".correx.toml", PROFILE.replace("verify_before_stop = true",
                                                   "verify_before_stop = false"))
    git(project, "commit", "-qam", "no stop check")
    write(project, "src/app.py", "FAIL\n")
    result = hook(project, "claude-code", stop(project))
    assert (result.code, result.stdout) == (0, ""), result


def test_a_stage_can_opt_in_on_its_own(project: Path) -> None:
    text = PROFILE.replace("verify_before_stop = true", "verify_before_stop = false")
    write(project, ".correx.toml", text + "verify_before_stop = true\n")
    git(project, "commit", "-qam", "only implement checks stops")
    write(project, "src/app.py", "FAIL\n")
    assert json_answer(hook(project, "claude-code", stop(project)))["decision"] == "block"


def test_gemini_after_agent_is_denied_until_verified(project: Path) -> None:
    write(project, "src/app.py", "FAIL\n")
    answer = json_answer(hook(project, "gemini", gemini("AfterAgent", project)))
    assert answer["decision"] == "deny"
    assert "git correx verify" in answer["reason"]


def test_codex_stop_blocks_with_exit_2(project: Path) -> None:
    write(project, "src/app.py", "FAIL\n")
    result = hook(project, "codex", stop(project))
    assert result.code == 2 and "git correx verify" in result.stderr, result


def test_cursor_stop_sends_a_followup_until_verified(project: Path) -> None:
    write(project, "src/app.py", "FAIL\n")
    answer = json_answer(hook(project, "cursor", cursor("stop", project, status="completed",
                                                        loop_count=0)))
    assert "git correx verify" in answer["followup_message"]
    again = hook(project, "cursor", cursor("stop", project, status="completed", loop_count=1))
    assert json_answer(again) == {}


def test_a_pass_under_another_profile_is_not_taken_from_the_ledger(
        project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The same state key and command digests, but the line says it ran another profile
    (added by a foreign writer the repository trusts: signed by an allowed signer): the
    state tree's own profile never ran, so the Stop gate does not take it and runs the
    check itself."""
    from tests.ledger_facts import note_line
    from tests.trusted_writer import sign_ledger_tip

    write(project, "src/app.py", "VALUE = 2\n")
    assert run_correx(project, "verify", "--stage", "implement", "--quiet").code == 0
    key = run_correx(project, "state").stdout.split()[0]
    genuine = notes_on(project, key)[-1]
    git(project, "update-ref", "-d", "refs/notes/correx")
    other = git(project, "hash-object", "-w", "--stdin", input=b"version = 1\n").strip()
    note_line(project, key, genuine.kind, {**(genuine.model_extra or {}), "profile": other},
              state_key=key)
    sign_ledger_tip(project, tmp_path_factory.mktemp("keys"))
    assert hook(project, "claude-code", stop(project)).code == 0
    assert observations(project) == ["pass", "pass"]  # the forged line, then a real run
