"""Only the runtime actor that started a step claims or writes in it (seed 004), as real
processes: the step is started under `CORREX_RUNTIME=worker-1`; another runtime's write
(an agent's PreToolUse payload, `assess write`), shell call (PostToolUse) and blocker claim
are refused naming both, while the starting runtime goes on."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.agents.conftest import claude
from tests.conftest import CliResult, write
from tests.session.conftest import state_key, status

Correx = Callable[..., CliResult]
WORKER = {"CORREX_RUNTIME": "worker-1"}
INTRUDER = {"CORREX_RUNTIME": "worker-2"}
STARTED_BY = "the step was started by Ada Tester <ada@example.test>"


@pytest.fixture
def started(locked: tuple[Path, str], correx: Correx) -> Path:
    """S1 of the locked session started by the runtime worker-1 (a real process)."""
    root, _ = locked
    result = correx(root, "step", "start", "S1", env=WORKER)
    assert result.code == 0, result
    return root


def pre_tool_write(correx: Correx, root: Path, env: dict[str, str]) -> CliResult:
    """Claude Code's PreToolUse for a Write of src/a.py (inside S1's writes)."""
    payload = claude("PreToolUse", root, "Write", file_path=str(root / "src/a.py"),
                     content="VALUE = 1\n")
    return correx(root, "assess", "--hook", "claude-code", input=payload, env=env)


def test_a_write_by_another_runtime_is_denied_naming_both(started: Path,
                                                          correx: Correx) -> None:
    denied = pre_tool_write(correx, started, INTRUDER)
    assert denied.code == 0, denied
    output = json.loads(denied.stdout)["hookSpecificOutput"]
    assert output["permissionDecision"] == "deny", output
    reason = output["permissionDecisionReason"]
    assert "a write in step S1 of session run-1 by Ada Tester <ada@example.test>" in reason
    assert "runtime 'worker-2'" in reason and "runtime 'worker-1'" in reason, reason
    assert STARTED_BY in reason
    unnamed = pre_tool_write(correx, started, {})
    assert "no runtime name" in json.loads(unnamed.stdout)[
        "hookSpecificOutput"]["permissionDecisionReason"]
    allowed = pre_tool_write(correx, started, WORKER)
    assert allowed.code == 0 and allowed.stdout == "", allowed


def test_a_shell_call_by_another_runtime_is_blocked_naming_both(started: Path,
                                                                correx: Correx) -> None:
    payload = claude("PostToolUse", started, "Bash", command="touch src/a.py")
    blocked = correx(started, "assess", "--hook", "claude-code", input=payload, env=INTRUDER)
    answer = json.loads(blocked.stdout)
    assert answer["decision"] == "block", answer
    assert "a shell call in step S1" in answer["reason"]
    assert "runtime 'worker-2'" in answer["reason"] and STARTED_BY in answer["reason"]
    own = correx(started, "assess", "--hook", "claude-code", input=payload, env=WORKER)
    assert own.code == 0 and own.stdout == "", own


def test_assess_write_by_another_identity_exits_1(started: Path, correx: Correx) -> None:
    grace = {**WORKER, "GIT_AUTHOR_NAME": "Grace", "GIT_AUTHOR_EMAIL": "grace@example.test"}
    refused = correx(started, "assess", "write", "src/a.py", env=grace)
    assert refused.code == 1, refused
    assert "by Grace <grace@example.test>" in refused.stderr and STARTED_BY in refused.stderr
    assert correx(started, "assess", "write", "src/a.py", env=WORKER).code == 0


def test_a_blocker_claim_by_another_runtime_is_refused(started: Path, correx: Correx,
                                                       tmp_path: Path) -> None:
    write(started, "src/a.py", "BUG\n")
    assert correx(started, "verify", env=WORKER).code == 1  # observed failing: exit code 1
    claim = tmp_path / "claim.json"
    claim.write_text(json.dumps({"class": "observed_fact", "provider": "verification",
                                 "subject": state_key(started), "fact": "exit_code",
                                 "expected": 1}))
    refused = correx(started, "pause", "--claim", str(claim), env=INTRUDER)
    assert refused.code == 1, refused
    assert "a blocker claim in step S1" in refused.stderr and STARTED_BY in refused.stderr
    assert "runtime 'worker-2'" in refused.stderr, refused
    assert status(correx, started, "run-1")["state"]["pause"] is None  # nothing written
    confirmed = correx(started, "pause", "--claim", str(claim), env=WORKER)
    assert confirmed.code == 0 and "confirmed" in confirmed.stdout, confirmed


def test_a_runtime_name_that_cannot_be_printed_is_a_usage_error(started: Path,
                                                                correx: Correx) -> None:
    result = correx(started, "assess", "write", "src/a.py",
                    env={"CORREX_RUNTIME": "worker\x1b[2J"})
    assert result.code == 2 and "CORREX_RUNTIME must be printable" in result.stderr, result
