"""Each agent's file tools before they run, answered in that agent's own format, and every
malformed payload turned into that agent's blocking answer (fail closed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.agents.conftest import claude, cursor, gemini, hook, json_answer
from tests.manifest.conftest import assessment, recorded

PATCH_ADD = """*** Begin Patch
*** Add File: {path}
+print("hello")
*** End Patch
"""
PATCH_MOVE = """*** Begin Patch
*** Update File: src/app.py
*** Move to: {path}
@@
-VALUE = 1
+VALUE = 2
*** End Patch
"""


def codex_patch(root: Path, patch: str) -> bytes:
    return claude("PreToolUse", root, "apply_patch", command=patch)


def test_codex_apply_patch_adding_a_file_outside_is_blocked(project: Path) -> None:
    result = hook(project, "codex", codex_patch(project, PATCH_ADD.format(path="docs/x.md")))
    assert (result.code, result.stdout) == (2, ""), result
    assert "PATH_OUTSIDE_MANIFEST: docs/x.md" in result.stderr
    (event,) = recorded(project)
    assert assessment(event).agent is not None


def test_codex_apply_patch_inside_is_allowed(project: Path) -> None:
    result = hook(project, "codex", codex_patch(project, PATCH_ADD.format(path="src/x.py")))
    assert (result.code, result.stdout, result.stderr) == (0, "", ""), result


def test_codex_apply_patch_moving_a_file_out_is_blocked(project: Path) -> None:
    result = hook(project, "codex", codex_patch(project, PATCH_MOVE.format(path="lib/app.py")))
    assert result.code == 2 and "lib/app.py" in result.stderr, result
    assert "src/app.py" not in result.stderr.split("blocked this")[1].split("\n", 1)[1]


def test_codex_bash_before_it_runs_is_allowed(project: Path) -> None:
    result = hook(project, "codex", claude("PreToolUse", project, "Bash", command="ls"))
    assert (result.code, result.stdout) == (0, ""), result


@pytest.mark.parametrize("tool", ["write_file", "replace"])
def test_gemini_write_outside_is_denied(project: Path, tool: str) -> None:
    answer = json_answer(hook(project, "gemini", gemini(
        "BeforeTool", project, tool, file_path=str(project / "docs" / "x.md"), content="x")))
    assert answer["decision"] == "deny"
    assert "PATH_OUTSIDE_MANIFEST: docs/x.md" in answer["reason"]


def test_gemini_write_inside_is_allowed(project: Path) -> None:
    result = hook(project, "gemini", gemini("BeforeTool", project, "write_file",
                                            file_path="src/x.py", content="x"))
    assert (result.code, result.stdout, result.stderr) == (0, "", ""), result


def test_gemini_read_of_a_missing_file_is_denied(project: Path) -> None:
    answer = json_answer(hook(project, "gemini", gemini("BeforeTool", project, "read_file",
                                                        absolute_path=str(project / "nope"))))
    assert "REFERENCE_EXISTS" in answer["reason"]


def test_cursor_read_of_a_missing_file_is_denied(project: Path) -> None:
    answer = json_answer(hook(project, "cursor", cursor(
        "beforeReadFile", project, file_path=str(project / "nope.txt"), content="")))
    assert answer["permission"] == "deny"
    assert "REFERENCE_EXISTS" in answer["agent_message"]


def test_cursor_shell_is_allowed_before_it_runs(project: Path) -> None:
    answer = json_answer(hook(project, "cursor", cursor(
        "beforeShellExecution", project, command="ls", cwd=str(project))))
    assert answer == {"permission": "allow"}


def test_cursor_edit_outside_is_recorded_after_the_fact(project: Path) -> None:
    result = hook(project, "cursor", cursor(
        "afterFileEdit", project, file_path=str(project / "docs" / "guide.md"),
        edits=[{"old_string": "guide", "new_string": "GUIDE"}]))
    assert json_answer(result) == {}
    assert "PATH_OUTSIDE_MANIFEST: docs/guide.md" in result.stderr
    (event,) = recorded(project)
    agent = assessment(event).agent
    assert agent is not None and (agent.name, agent.conversation) == ("cursor", "conv-123")


def test_events_we_do_not_judge_are_allowed(project: Path) -> None:
    for agent, body in (("claude-code", claude("UserPromptSubmit", project)),
                        ("gemini", gemini("SessionStart", project)),
                        ("cursor", cursor("beforeSubmitPrompt", project, prompt="hi"))):
        assert hook(project, agent, body).code == 0


COMMON_BAD = [b"", b"not json", b"[1]", b'{"hook_event_name": 3}', b"\xff\xfe"]
MALFORMED = {
    "claude-code": [*COMMON_BAD,
                    b'{"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {}}',
                    b'{"hook_event_name": "PostToolUse", "tool_input": {"command": "ls"}}',
                    b'{"hook_event_name": "Stop", "stop_hook_active": "yes"}'],
    "codex": [*COMMON_BAD,
              b'{"hook_event_name": "PreToolUse", "tool_name": "apply_patch", '
              b'"tool_input": {"command": "*** Add File: x"}}',
              b'{"hook_event_name": "PreToolUse", "tool_name": "apply_patch", '
              b'"tool_input": {"command": "*** Begin Patch\\n*** End Patch"}}',
              b'{"hook_event_name": "PreToolUse", "tool_name": "apply_patch", '
              b'"tool_input": {}}'],
    "gemini": [*COMMON_BAD, b'{"tool_name": "write_file", "tool_input": {"file_path": "a"}}',
               b'{"hook_event_name": "BeforeTool", "tool_name": "write_file", '
               b'"tool_input": {"content": "x"}}',
               b'{"hook_event_name": "BeforeTool", "tool_name": "replace", '
               b'"tool_input": {"file_path": ""}}'],
    "cursor": [*COMMON_BAD, b'{"hook_event_name": "beforeReadFile"}',
               b'{"hook_event_name": "beforeShellExecution", "cwd": "/tmp"}',
               b'{"hook_event_name": "stop", "loop_count": "1"}',
               b'{"hook_event_name": "afterFileEdit", "file_path": "a", '
               b'"workspace_roots": ["relative"]}'],
}
CASES = [(agent, body) for agent, bodies in MALFORMED.items() for body in bodies]


@pytest.mark.parametrize(("agent", "body"), CASES,
                         ids=[f"{agent}-{index}" for index, (agent, _) in enumerate(CASES)])
def test_malformed_payload_is_the_agents_blocking_answer(project: Path, agent: str,
                                                         body: bytes) -> None:
    result = hook(project, agent, body)
    assert result.code == 2, result
    assert "could not assess this tool call, so it is blocked (fail closed)" in result.stderr
    if agent == "cursor":
        assert json.loads(result.stdout)["permission"] == "deny"
    else:
        assert result.stdout == ""
