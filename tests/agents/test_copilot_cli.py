"""GitHub Copilot CLI's hooks (`.github/hooks/*.json`): real `git correx assess --hook
copilot-cli` processes, the camelCase payloads Copilot sends (no event name: the event is
what the payload carries), answered the way Copilot reads them — a deny or a block on stdout
with exit 0, because any other exit lets the tool run."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.agents.conftest import copilot, hook, json_answer
from tests.conftest import CliResult, git, run_correx, write

OPERATOR_CALL = "git correx plan authorize plan.toml"


def deny_reason(result: CliResult) -> str:
    answer = json_answer(result)
    assert answer["permissionDecision"] == "deny", answer
    reason: str = answer["permissionDecisionReason"]
    return reason


def allowed(result: CliResult) -> bool:
    return (result.code, result.stdout) == (0, "")


@pytest.mark.parametrize("shell", ["bash", "powershell"])
def test_a_shell_call_running_an_operator_decision_is_denied_before_it_runs(
        project: Path, shell: str) -> None:
    reason = deny_reason(hook(project, "copilot-cli", copilot(
        "preToolUse", project, shell, command=OPERATOR_CALL, description="authorize")))
    assert "person" in reason and "docs/plan-authority.md" in reason


def test_typing_an_operator_decision_into_a_running_shell_is_denied(project: Path) -> None:
    payload = copilot("preToolUse", project, "write_bash", shellId="1",
                      input=f"{OPERATOR_CALL}\n")
    assert "person" in deny_reason(hook(project, "copilot-cli", payload))


def test_the_vs_code_compatible_format_is_read_too(project: Path) -> None:
    """Configured under PascalCase names, Copilot sends snake_case fields and the event."""
    payload = json.dumps({"hook_event_name": "PreToolUse", "session_id": "s1",
                          "timestamp": "2026-01-01T00:00:00Z", "cwd": str(project),
                          "tool_name": "bash", "tool_input": {"command": OPERATOR_CALL}})
    assert "person" in deny_reason(hook(project, "copilot-cli", payload.encode()))


def test_an_ordinary_shell_call_is_allowed(project: Path) -> None:
    assert allowed(hook(project, "copilot-cli", copilot(
        "preToolUse", project, "bash", command="git status && python -m pytest -q")))


@pytest.mark.parametrize("args_as_text", [False, True])
@pytest.mark.parametrize("tool", ["edit", "create"])
def test_a_file_write_outside_the_manifest_is_denied_naming_it(
        project: Path, tool: str, args_as_text: bool) -> None:
    payload = copilot("preToolUse", project, tool, args_as_text=args_as_text,
                      path=str(project / "docs/guide.md"), file_text="x")
    reason = deny_reason(hook(project, "copilot-cli", payload))
    assert "docs/guide.md" in reason and "implement" in reason


def test_a_file_write_inside_the_manifest_is_allowed(project: Path) -> None:
    payload = copilot("preToolUse", project, "edit", path=str(project / "src/app.py"),
                      old_str="1", new_str="2")
    assert allowed(hook(project, "copilot-cli", payload))


def test_a_tool_it_does_not_judge_is_allowed(project: Path) -> None:
    assert allowed(hook(project, "copilot-cli", copilot(
        "preToolUse", project, "web_fetch", url="https://example.com")))


def test_agent_stop_on_a_failing_change_blocks_until_it_passes(project: Path) -> None:
    """Copilot sends no final message: every stop runs the full expectation (the Stop gate
    runs it itself when the ledger has no pass)."""
    write(project, "src/app.py", "FAIL\n")
    answer = json_answer(hook(project, "copilot-cli", copilot("agentStop", project)))
    assert answer["decision"] == "block"
    assert "git correx verify --stage implement" in answer["reason"]
    write(project, "src/app.py", "VALUE = 2\n")
    assert allowed(hook(project, "copilot-cli", copilot("agentStop", project)))


def test_a_stop_released_by_the_block_cap_says_on_stderr_that_nothing_is_verified(
        project: Path) -> None:
    write(project, "src/app.py", "FAIL\n")
    git(project, "config", "correx.stopBlockCap", "1")
    assert json_answer(hook(project, "copilot-cli", copilot("agentStop", project)))[
        "decision"] == "block"
    released = hook(project, "copilot-cli", copilot("agentStop", project))
    assert (released.code, released.stdout) == (0, ""), released
    assert "NOT verified" in released.stderr, released


def test_post_tool_use_reports_on_stderr_what_a_shell_call_wrote_outside(project: Path
                                                                        ) -> None:
    write(project, "README.md", "rewritten\n")
    result = hook(project, "copilot-cli", copilot("postToolUse", project, "bash",
                                                  command="echo > README.md"))
    assert (result.code, result.stdout) == (0, ""), result
    assert "README.md" in result.stderr


@pytest.mark.parametrize("payload", [
    b"", b"[]", b'{"cwd": "/tmp"}', b'{"toolName": "bash", "toolArgs": "{not json"}',
    b'{"toolName": "bash", "toolArgs": {}}', b'{"toolName": "edit", "toolArgs": {"path": 3}}',
])
def test_a_payload_copilot_would_not_send_is_denied_and_blocked_with_exit_0(
        project: Path, payload: bytes) -> None:
    """Copilot logs and skips a hook that exits non-zero: the tool would run."""
    answer = json_answer(hook(project, "copilot-cli", payload))
    assert answer["permissionDecision"] == "deny" and answer["decision"] == "block"
    assert "fail closed" in answer["permissionDecisionReason"]


def installed(project: Path) -> dict[str, object]:
    assert run_correx(project, "hooks", "install", "--agent", "copilot-cli").code == 0
    document: dict[str, object] = json.loads(
        (project / ".github/hooks/git-correx.json").read_text())
    return document


def run_installed(project: Path, command: str, payload: bytes) -> CliResult:
    proc = subprocess.run(["sh", "-c", command], cwd=project, input=payload,
                          capture_output=True, check=False)
    return CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def test_install_writes_copilots_hook_file(project: Path) -> None:
    document = installed(project)
    assert document["version"] == 1
    hooks = document["hooks"]
    assert isinstance(hooks, dict) and set(hooks) == {"preToolUse", "postToolUse", "agentStop"}
    for entries in hooks.values():
        (entry,) = entries
        assert entry["type"] == "command" and "assess --hook copilot-cli" in entry["bash"]
    assert hooks["agentStop"][0]["timeoutSec"] == 600  # Copilot's 30 s would cut the gate
    assert "unchanged" in run_correx(project, "hooks", "install", "--agent",
                                     "copilot-cli").stdout


def test_the_installed_command_denies_as_copilot_runs_it(project: Path) -> None:
    hooks = installed(project)["hooks"]
    command = hooks["preToolUse"][0]["bash"]  # type: ignore[index]
    result = run_installed(project, command, copilot("preToolUse", project, "bash",
                                                     command=OPERATOR_CALL))
    assert "person" in deny_reason(result)


def test_the_installed_command_blocks_when_git_correx_cannot_start(
        project: Path, tmp_path: Path) -> None:
    """A `git-correx` on PATH that cannot start (its interpreter gone: exit 127) would be
    skipped by Copilot: the installed command answers Copilot's blocking answers itself."""
    hooks = installed(project)["hooks"]
    command = hooks["preToolUse"][0]["bash"]  # type: ignore[index]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    broken = bin_dir / "git-correx"
    broken.write_text("#!/bin/sh\nexec /nonexistent/python3 -m gitcorrex \"$@\"\n")
    broken.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["sh", "-c", command], cwd=project, capture_output=True,
                          check=False, env=env,
                          input=copilot("preToolUse", project, "bash", command="ls"))
    result = CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    assert result.code == 0, result
    answer = json_answer(result)
    assert answer["permissionDecision"] == "deny" and answer["decision"] == "block"
