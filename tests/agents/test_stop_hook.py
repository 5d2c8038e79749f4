"""The Stop hook: an agent may end its turn only when the changed workspace has a passing
observation of the stage's expectation on its current state key; never loops."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agents.conftest import PROFILE, claude, cursor, gemini, hook, json_answer
from tests.conftest import git, run_correx, write


def stop(project: Path, active: bool = False) -> bytes:
    payload = claude("Stop", project)
    return payload.replace(b'"stop_hook_active": false',
                           f'"stop_hook_active": {str(active).lower()}'.encode())


def test_unverified_changed_workspace_blocks_the_stop(project: Path) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    answer = json_answer(hook(project, "claude-code", stop(project)))
    assert answer["decision"] == "block"
    assert "no passing observation of 'check'" in answer["reason"]
    assert "git correx verify --stage implement" in answer["reason"]


def test_stop_hook_active_lets_the_turn_end(project: Path) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    result = hook(project, "claude-code", stop(project, active=True))
    assert (result.code, result.stdout, result.stderr) == (0, "", ""), result


def test_a_pass_on_the_current_state_lets_the_turn_end(project: Path) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    assert run_correx(project, "verify", "--stage", "implement", "--quiet").code == 0
    result = hook(project, "claude-code", stop(project))
    assert (result.code, result.stdout) == (0, ""), result
    write(project, "src/app.py", "VALUE = 3\n")  # the pass was for another state
    assert json_answer(hook(project, "claude-code", stop(project)))["decision"] == "block"


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
    write(project, "src/app.py", "VALUE = 2\n")
    result = hook(project, "claude-code", stop(project))
    assert (result.code, result.stdout) == (0, ""), result


def test_a_stage_can_opt_in_on_its_own(project: Path) -> None:
    text = PROFILE.replace("verify_before_stop = true", "verify_before_stop = false")
    write(project, ".correx.toml", text + "verify_before_stop = true\n")
    git(project, "commit", "-qam", "only implement checks stops")
    write(project, "src/app.py", "VALUE = 2\n")
    assert json_answer(hook(project, "claude-code", stop(project)))["decision"] == "block"


def test_gemini_after_agent_is_denied_until_verified(project: Path) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    answer = json_answer(hook(project, "gemini", gemini("AfterAgent", project)))
    assert answer["decision"] == "deny"
    assert "git correx verify" in answer["reason"]


def test_codex_stop_blocks_with_exit_2(project: Path) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    result = hook(project, "codex", stop(project))
    assert result.code == 2 and "git correx verify" in result.stderr, result


def test_cursor_stop_sends_a_followup_until_verified(project: Path) -> None:
    write(project, "src/app.py", "VALUE = 2\n")
    answer = json_answer(hook(project, "cursor", cursor("stop", project, status="completed",
                                                        loop_count=0)))
    assert "git correx verify" in answer["followup_message"]
    again = hook(project, "cursor", cursor("stop", project, status="completed", loop_count=1))
    assert json_answer(again) == {}


def test_a_pass_under_another_profile_does_not_let_the_turn_end(
        project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The same state key and command digests, but the line says it ran another profile
    (added by a foreign writer the repository trusts: signed by an allowed signer): the
    state tree's own profile never ran, so Stop blocks."""
    from tests.ledger_facts import note_line
    from tests.trusted_writer import sign_ledger_tip
    from tests.verify.conftest import notes_on

    write(project, "src/app.py", "VALUE = 2\n")
    assert run_correx(project, "verify", "--stage", "implement", "--quiet").code == 0
    key = run_correx(project, "state").stdout.split()[0]
    genuine = notes_on(project, key)[-1]
    git(project, "update-ref", "-d", "refs/notes/correx")
    other = git(project, "hash-object", "-w", "--stdin", input=b"version = 1\n").strip()
    note_line(project, key, genuine.kind, {**(genuine.model_extra or {}), "profile": other},
              state_key=key)
    sign_ledger_tip(project, tmp_path_factory.mktemp("keys"))
    assert json_answer(hook(project, "claude-code", stop(project)))["decision"] == "block"
