"""`git correx hooks install --agent NAME`: each agent's real settings format, merged into
what is there, idempotent, never clobbering a file it cannot read. Claude Code's default is
its local file (this machine's interpreter, fail closed, kept out of git); the files a team
commits are tested in test_shared_hooks.py."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from gitcorrex.agents.install import LAUNCH, LOCAL_FILES, portable_command
from tests.agents.conftest import claude
from tests.conftest import run_correx, write

FILES = {"claude-code": ".claude/settings.local.json", "codex": ".codex/hooks.json",
         "gemini": ".gemini/settings.json", "cursor": ".cursor/hooks.json"}
EVENTS = {"claude-code": {"PreToolUse", "PostToolUse", "Stop"},
          "codex": {"PreToolUse", "PostToolUse", "Stop"},
          "gemini": {"BeforeTool", "AfterTool", "AfterAgent"},
          "cursor": {"beforeShellExecution", "beforeReadFile", "afterFileEdit",
                     "afterShellExecution", "stop"}}


def commands(document: dict[str, object], event: str) -> list[str]:
    entries = document["hooks"][event]  # type: ignore[index]
    found = []
    for entry in entries:
        found += [entry["command"]] if "command" in entry else \
            [hook["command"] for hook in entry["hooks"]]
    return found


@pytest.mark.parametrize("agent", FILES)
def test_install_writes_the_agents_own_file(project: Path, agent: str) -> None:
    result = run_correx(project, "hooks", "install", "--agent", agent)
    assert result.code == 0, result
    document = json.loads((project / FILES[agent]).read_text())
    assert set(document["hooks"]) == EVENTS[agent]
    for event in EVENTS[agent]:
        expected = (f"{sys.executable} -c {shlex.quote(LAUNCH)} assess --hook {agent} || exit 2"
                    if agent in LOCAL_FILES else portable_command(agent))
        assert commands(document, event) == [expected]
    if agent == "cursor":
        assert document["version"] == 1


def test_install_keeps_other_settings_and_hooks_and_is_idempotent(project: Path) -> None:
    mine = {"permissions": {"allow": ["Bash(ls)"]},
            "hooks": {"PreToolUse": [{"matcher": "Bash",
                                      "hooks": [{"type": "command", "command": "echo mine"}]}]}}
    write(project, FILES["claude-code"], json.dumps(mine))
    assert run_correx(project, "hooks", "install", "--agent", "claude-code").code == 0
    first = (project / FILES["claude-code"]).read_text()
    again = run_correx(project, "hooks", "install", "--agent", "claude-code")
    assert "unchanged" in again.stdout, again
    document = json.loads(first)
    assert document["permissions"] == mine["permissions"]
    assert commands(document, "PreToolUse")[0] == "echo mine"
    assert len(commands(document, "PreToolUse")) == 2
    assert (project / FILES["claude-code"]).read_text() == first


def test_print_writes_nothing(project: Path) -> None:
    result = run_correx(project, "hooks", "install", "--agent", "gemini", "--print")
    assert result.code == 0, result
    assert set(json.loads(result.stdout)["hooks"]) == EVENTS["gemini"]
    assert not (project / FILES["gemini"]).exists()


def test_a_file_that_is_not_json_is_left_untouched(project: Path) -> None:
    write(project, FILES["codex"], "{ not json")
    result = run_correx(project, "hooks", "install", "--agent", "codex")
    assert result.code == 2, result
    assert ".codex/hooks.json: not valid JSON" in result.stderr
    assert (project / FILES["codex"]).read_text() == "{ not json"


def test_the_installed_command_is_what_the_agent_runs(project: Path) -> None:
    """Run the command exactly as written into the settings, as Claude Code would (sh -c)."""
    import subprocess

    assert run_correx(project, "hooks", "install", "--agent", "claude-code").code == 0
    document = json.loads((project / FILES["claude-code"]).read_text())
    (command,) = commands(document, "PreToolUse")
    payload = claude("PreToolUse", project, "Write", file_path="docs/x.md", content="x")
    proc = subprocess.run(["sh", "-c", command], cwd=project, input=payload,
                          capture_output=True, check=False)
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
