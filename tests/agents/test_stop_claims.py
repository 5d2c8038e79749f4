"""Claim-gated Stop: the cheap `stop_expectation` on every stop, the full expectation when
the agent's final message claims completion or the host sends no message; and the block
cap per (conversation, state). Real processes, the payloads each host sends."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.agents.conftest import CHECK_SCRIPT, cursor, gemini, hook, json_answer
from tests.agents.test_stop_hook import observations, stop
from tests.conftest import git, run_correx, write

LINT_SCRIPT = "import pathlib, sys\nsys.exit('LINT' in pathlib.Path('src/app.py').read_text())\n"
PROFILE = f"""version = 1
[commands]
check = '{sys.executable} check.py'
lint = '{sys.executable} lint.py'
[expectations]
check = ["check"]
lint = ["lint"]
[defaults]
verify_before_stop = true
stop_expectation = "lint"
[stages.implement]
build_expectation = "check"
writes = ["/src/**"]
"""


@pytest.fixture
def gated(make_repo: Callable[..., Path]) -> Path:
    """`check` (the full expectation) fails on FAIL in src/app.py; `lint` (the cheap one,
    `stop_expectation`) fails only on LINT."""
    root = make_repo(files={"src/app.py": "VALUE = 1\n", ".correx.toml": PROFILE,
                            "check.py": CHECK_SCRIPT, "lint.py": LINT_SCRIPT})
    git(root, "config", "correx.stage", "implement")
    return root


def expectations_run(root: Path) -> list[str]:
    key = run_correx(root, "state").stdout.split()[0]
    from tests.verify.conftest import notes_on

    return [str((e.model_extra or {})["expectation"]) for e in notes_on(root, key)
            if e.kind == "workspace_verification_observed"]


def test_a_stop_without_a_claim_runs_only_the_cheap_check(gated: Path) -> None:
    write(gated, "src/app.py", "FAIL\n")
    result = hook(gated, "claude-code", stop(gated, message="I looked at the parser; a "
                                                           "question before I go on."))
    assert (result.code, result.stdout) == (0, ""), result
    assert expectations_run(gated) == ["lint"]


@pytest.mark.parametrize("message", ["Done.", "All tests pass now.", "I implemented the "
                                     "parser.", "Fixed the bug", "The feature is complete ✅"])
def test_a_completion_claim_runs_the_full_check(gated: Path, message: str) -> None:
    write(gated, "src/app.py", "FAIL\n")
    answer = json_answer(hook(gated, "claude-code", stop(gated, message=message)))
    assert answer["decision"] == "block"
    assert "'check' (your last message claims the work is done)" in answer["reason"]
    assert expectations_run(gated) == ["check"]


def test_an_agent_that_never_claims_still_fails_on_the_cheap_check(gated: Path) -> None:
    write(gated, "src/app.py", "LINT\n")
    answer = json_answer(hook(gated, "claude-code", stop(gated, message="Pausing here.")))
    assert answer["decision"] == "block"
    assert "'lint' (the cheap check of every stop)" in answer["reason"]
    assert "--expect lint" in answer["reason"]


def test_no_message_from_the_host_means_the_full_check(gated: Path) -> None:
    write(gated, "src/app.py", "FAIL\n")
    assert json_answer(hook(gated, "claude-code", stop(gated)))["decision"] == "block"
    followup = json_answer(hook(gated, "cursor", cursor("stop", gated, status="completed",
                                                        loop_count=0)))
    assert "'check'" in followup["followup_message"]


def test_gemini_and_codex_messages_are_read(gated: Path) -> None:
    write(gated, "src/app.py", "FAIL\n")  # only the full check fails
    quiet = json.loads(gemini("AfterAgent", gated))
    quiet["prompt_response"] = "Still reading the code."
    result = hook(gated, "gemini", json.dumps(quiet).encode())
    assert (result.code, result.stdout) == (0, ""), result
    codex = json.loads(stop(gated))
    codex["last_assistant_message"] = "Still reading the code."
    result = hook(gated, "codex", json.dumps(codex).encode())
    assert (result.code, result.stderr) == (0, ""), result
    codex["last_assistant_message"] = "Everything is done"
    result = hook(gated, "codex", json.dumps(codex).encode())
    assert result.code == 2 and "'check'" in result.stderr, result
    del codex["last_assistant_message"]  # the spelling of Codex's older notify payload
    codex["last-assistant-message"] = "Still reading the code."
    assert hook(gated, "codex", json.dumps(codex).encode()).code == 0


def test_a_full_pass_satisfies_a_cheap_stop_but_a_cheap_pass_no_claim(gated: Path) -> None:
    write(gated, "src/app.py", "FAIL\n")
    assert run_correx(gated, "verify", "--expect", "lint", "--quiet").code == 0
    claim = json_answer(hook(gated, "claude-code", stop(gated, message="done")))
    assert claim["decision"] == "block"
    write(gated, "src/app.py", "VALUE = 3\n")
    assert run_correx(gated, "verify", "--stage", "implement", "--quiet").code == 0
    assert hook(gated, "claude-code", stop(gated, message="a question")).stdout == ""
    assert expectations_run(gated) == ["check"]  # the full pass was enough, nothing ran


def test_an_unknown_stop_expectation_is_a_profile_error(gated: Path) -> None:
    write(gated, ".correx.toml", PROFILE.replace('stop_expectation = "lint"',
                                                 'stop_expectation = "lnt"'))
    result = run_correx(gated, "verify", "--quiet")
    assert result.code == 2 and 'defaults.stop_expectation: unknown expectation "lnt"' \
        in result.stderr, result


def test_blocks_are_capped_per_conversation_and_state(gated: Path) -> None:
    write(gated, "src/app.py", "FAIL\n")
    for count in (1, 2, 3):
        answer = json_answer(hook(gated, "claude-code", stop(gated, message="done")))
        assert f"(Stop block {count} of 3 on this state)" in answer["reason"]
    released = json_answer(hook(gated, "claude-code", stop(gated, message="done")))
    assert "decision" not in released
    notice = released["systemMessage"]
    assert "the cap (correx.stopBlockCap, default 3)" in notice
    assert "the tree is NOT verified" in notice and "'check'" in notice
    assert (gated / ".git" / "correx" / "stop-blocks.json").is_file()
    other = json_answer(hook(gated, "claude-code", stop(gated, message="done",
                                                         conversation="another-one")))
    assert "(Stop block 1 of 3" in other["reason"]
    write(gated, "src/app.py", "FAIL\nFAIL\n")  # another state: counted afresh
    assert json_answer(hook(gated, "claude-code", stop(gated, message="done")))["decision"] \
        == "block"


def test_the_cap_is_git_configuration(gated: Path) -> None:
    write(gated, "src/app.py", "FAIL\n")
    git(gated, "config", "correx.stopBlockCap", "1")
    assert json_answer(hook(gated, "claude-code", stop(gated)))["decision"] == "block"
    assert "systemMessage" in json_answer(hook(gated, "claude-code", stop(gated)))
    git(gated, "config", "correx.stopBlockCap", "many")
    result = hook(gated, "claude-code", stop(gated))
    assert result.code == 2 and "correx.stopBlockCap is 'many'" in result.stderr, result


def test_an_agent_cannot_raise_the_cap_through_its_shell(gated: Path) -> None:
    payload = json.loads(stop(gated))
    payload.update(hook_event_name="PreToolUse", tool_name="Bash", tool_use_id="toolu_9",
                   tool_input={"command": "git config correx.stopBlockCap 0"})
    del payload["stop_hook_active"]
    answer = json_answer(hook(gated, "claude-code", json.dumps(payload).encode()))
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_weakened_test_counts_against_the_cap_too(gated: Path) -> None:
    write(gated, "tests/test_app.py", "def test_one():\n    assert 1 + 1 == 2\n")
    git(gated, "add", "-A")
    git(gated, "commit", "-qm", "a test")
    write(gated, "tests/test_app.py", "def test_one():\n    pass\n")
    git(gated, "config", "correx.stopBlockCap", "1")
    assert "test_one" in json_answer(hook(gated, "claude-code", stop(gated)))["reason"]
    notice = json_answer(hook(gated, "claude-code", stop(gated)))["systemMessage"]
    assert "NOT verified" in notice and "test_one" in notice
    assert observations(gated) == []  # nothing ran: the weakening was judged first


def test_a_forged_block_count_only_brings_the_unverified_release(gated: Path) -> None:
    """The counts are the agent's to write (they live in .git): forging them can only bring
    the release sooner, which says the tree is NOT verified — what `stop_hook_active`
    already gives a host after one block; the check still ran, and its failure is recorded."""
    from tests.agents.conftest import CONVERSATION

    write(gated, "src/app.py", "FAIL\n")
    key = run_correx(gated, "state").stdout.split()[0]
    write(gated, ".git/correx/stop-blocks.json",
          json.dumps({"v": 1, "blocks": {f"{CONVERSATION} {key}": 99}}))
    answer = json_answer(hook(gated, "claude-code", stop(gated, message="done")))
    assert "decision" not in answer and "NOT verified" in answer["systemMessage"]
    assert observations(gated) == ["fail"]


def test_a_pass_of_the_work_trees_own_commands_does_not_end_the_turn(gated: Path) -> None:
    """The agent rewrites `check` in the work tree's profile to always pass, and a person
    even accepts that finding: the run passes, but its commands are not HEAD's profile's,
    so the stop is still refused, and the reason says why."""
    write(gated, "src/app.py", "FAIL\n")
    write(gated, ".correx.toml", PROFILE.replace(
        f"check = '{sys.executable} check.py'", f"check = '{sys.executable} -c pass'"))
    assert run_correx(gated, "accept-tests", "--reason", "the profile is mine").code == 0
    answer = json_answer(hook(gated, "claude-code", stop(gated, message="done")))
    assert answer["decision"] == "block"
    assert "not those of .correx.toml at HEAD" in answer["reason"]
    assert observations(gated) == ["pass"]
