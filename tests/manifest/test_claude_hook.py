"""`git correx assess --hook claude-code`: Claude Code's PreToolUse protocol, fail closed.

Exit 0 and silence allows the tool call; a block is exit 0 with `hookSpecificOutput`
`permissionDecision: "deny"` and the reason; every failure is exit 2 with the reason on
stderr, because Claude Code lets the call proceed on any other code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gitcorrex.model.assessment import Rule
from tests.conftest import CliResult, git, write
from tests.manifest.conftest import Correx, assessment, recorded

HOOK = ("assess", "--hook", "claude-code")
CLAUDE_ID = "0b6c9b1e-2f5e-4a55-9f0e-3f4d2c1b0a99"


def payload(tool: str, path: str | None, cwd: Path | None, **extra: Any) -> bytes:
    """What Claude Code sends on stdin before a tool call."""
    document: dict[str, Any] = {"session_id": CLAUDE_ID,
                                "transcript_path": "/tmp/transcript.jsonl",
                                "hook_event_name": "PreToolUse", "tool_name": tool,
                                "tool_input": {"file_path": path, "content": "x = 1\n"}}
    if cwd is not None:
        document["cwd"] = str(cwd)
    document.update(extra)
    return json.dumps(document).encode()


def hook(correx: Correx, cwd: Path, stdin: bytes, *args: str) -> CliResult:
    return correx(cwd, *HOOK, *args, input=stdin)


def denied(result: CliResult) -> str:
    """The deny reason of a blocked PreToolUse answer (fails the test for anything else)."""
    assert (result.code, result.stderr) == (0, ""), result
    output = json.loads(result.stdout)["hookSpecificOutput"]
    assert (output["hookEventName"], output["permissionDecision"]) == ("PreToolUse", "deny")
    reason: str = output["permissionDecisionReason"]
    return reason


@pytest.fixture
def staged(project: Path) -> Path:
    git(project, "config", "correx.stage", "implement")
    return project


def test_allowed_write_exits_0_silently(staged: Path, correx: Correx) -> None:
    result = hook(correx, staged, payload("Write", str(staged / "src" / "new.py"), staged))
    assert (result.code, result.stdout, result.stderr) == (0, "", ""), result
    assert recorded(staged) == []


@pytest.mark.parametrize("tool", ["Write", "Edit", "MultiEdit"])
def test_blocked_write_is_denied_with_the_reason(staged: Path, correx: Correx,
                                                tool: str) -> None:
    reason = denied(hook(correx, staged, payload(tool, str(staged / "docs" / "guide.md"),
                                                 staged)))
    assert f"git correx blocked this {tool}" in reason
    assert "PATH_OUTSIDE_MANIFEST: docs/guide.md" in reason
    assert "instead: write only paths the manifest allows" in reason


def test_notebook_edit_uses_notebook_path(staged: Path, correx: Correx) -> None:
    body = json.dumps({"tool_name": "NotebookEdit", "cwd": str(staged),
                       "tool_input": {"notebook_path": str(staged / "docs" / "n.ipynb"),
                                      "new_source": "1"}}).encode()
    assert "docs/n.ipynb" in denied(hook(correx, staged, body))


def test_escape_through_a_symlinked_directory_is_blocked(staged: Path, correx: Correx,
                                                         tmp_path: Path) -> None:
    (staged / "src" / "out").symlink_to(tmp_path)
    result = hook(correx, staged, payload("Write", str(staged / "src" / "out" / "x"), staged))
    assert "PATH_OUTSIDE_WORKSPACE" in denied(result)


def test_relative_path_is_taken_from_the_payload_cwd(staged: Path, correx: Correx,
                                                     tmp_path: Path) -> None:
    result = hook(correx, tmp_path, payload("Write", "new.py", staged / "src"))
    assert (result.code, result.stdout) == (0, ""), result
    result = hook(correx, tmp_path, payload("Write", "../docs/x.md", staged / "src"))
    assert "docs/x.md" in denied(result)


def test_read_of_an_absent_file_is_blocked(staged: Path, correx: Correx) -> None:
    result = hook(correx, staged, payload("Read", str(staged / "src" / "nope.py"), staged))
    assert "REFERENCE_EXISTS: src/nope.py: does not exist" in denied(result)


def test_read_of_a_present_file_is_allowed(staged: Path, correx: Correx) -> None:
    result = hook(correx, staged, payload("Read", str(staged / "docs" / "guide.md"), staged))
    assert (result.code, result.stdout, result.stderr) == (0, "", ""), result


def test_other_tools_are_allowed(staged: Path, correx: Correx) -> None:
    body = json.dumps({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"},
                       "cwd": str(staged)}).encode()
    result = hook(correx, staged, body)
    assert (result.code, result.stdout, result.stderr) == (0, "", ""), result


def test_claude_session_id_is_only_the_recorded_conversation(staged: Path,
                                                            correx: Correx) -> None:
    denied(hook(correx, staged, payload("Write", "docs/x.md", staged)))
    (event,) = recorded(staged)
    assert (event.session, event.seq) == (None, None)
    fields = assessment(event)
    assert fields.rule is Rule.PATH_OUTSIDE_MANIFEST
    assert fields.agent is not None
    assert (fields.agent.name, fields.agent.hook_event, fields.agent.tool,
            fields.agent.conversation) == ("claude-code", "PreToolUse", "Write", CLAUDE_ID)


def test_claude_session_id_never_becomes_a_correx_session(staged: Path,
                                                          correx: Correx) -> None:
    denied(hook(correx, staged, payload("Write", "docs/x.md", staged)))
    assert correx(staged, "session", "status", CLAUDE_ID).code != 0
    listed = correx(staged, "session", "list")
    assert CLAUDE_ID not in listed.stdout + listed.stderr


def test_a_selected_session_the_ledger_lacks_fails_closed(staged: Path,
                                                          correx: Correx) -> None:
    for args, env in ((("--session", "orchestrator-7"), None),
                      ((), {"CORREX_SESSION": "orchestrator-7"})):
        result = correx(staged, *HOOK, *args, input=payload("Write", "src/a.py", staged),
                        env=env)
        assert result.code == 2, result
        assert "session 'orchestrator-7'" in result.stderr
    git(staged, "config", "correx.session", "orchestrator-8")
    result = hook(correx, staged, payload("Write", "src/a.py", staged))
    assert result.code == 2 and "orchestrator-8" in result.stderr, result
    assert recorded(staged) == []


def test_allow_is_recorded_with_record_all(staged: Path, correx: Correx) -> None:
    result = hook(correx, staged, payload("Write", "src/a.py", staged), "--record-all")
    assert (result.code, result.stdout) == (0, ""), result
    (event,) = recorded(staged)
    assert assessment(event).rule is Rule.ALLOW


MALFORMED = {
    "empty stdin": b"",
    "whitespace only": b"  \n",
    "not JSON": b"Write src/a.py",
    "not UTF-8": b'{"tool_name": "Write\xff"}',
    "a JSON array": b'["Write"]',
    "missing tool_name": b'{"tool_input": {"file_path": "src/a.py"}}',
    "missing tool_input": b'{"tool_name": "Write"}',
    "tool_input null": b'{"tool_name": "Write", "tool_input": null}',
    "tool_input a string": b'{"tool_name": "Write", "tool_input": "src/a.py"}',
    "tool_name a number": b'{"tool_name": 3, "tool_input": {}}',
    "file_path missing": b'{"tool_name": "Edit", "tool_input": {"old_string": "a"}}',
    "file_path a list": b'{"tool_name": "Write", "tool_input": {"file_path": ["a"]}}',
    "file_path empty": b'{"tool_name": "Read", "tool_input": {"file_path": ""}}',
    "cwd relative": b'{"tool_name": "Write", "cwd": "src", "tool_input": {"file_path": "a"}}',
    "cwd a number": b'{"tool_name": "Write", "cwd": 1, "tool_input": {"file_path": "a"}}',
    "session_id a number": b'{"tool_name": "Write", "session_id": 7, '
                           b'"tool_input": {"file_path": "a"}}',
}


@pytest.mark.parametrize("body", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_payload_exits_2(staged: Path, correx: Correx, body: bytes) -> None:
    result = hook(correx, staged, body)
    assert result.code == 2, result
    assert result.stderr.startswith("git correx could not assess this tool call, so it is "
                                    "blocked (fail closed):")


def test_cwd_that_does_not_exist_exits_2(staged: Path, correx: Correx) -> None:
    result = hook(correx, staged, payload("Write", "a.py", staged / "no" / "such"))
    assert result.code == 2, result
    assert "is not a directory" in result.stderr


def test_outside_a_repository_exits_2(tmp_path: Path, correx: Correx) -> None:
    result = hook(correx, tmp_path, payload("Write", str(tmp_path / "a.py"), tmp_path))
    assert result.code == 2, result
    assert "not inside a git repository" in result.stderr


def test_unreadable_manifest_fails_closed_with_2(make_repo: Any, correx: Correx) -> None:
    root = make_repo()
    git(root, "config", "correx.stage", "implement")  # no profile committed at HEAD
    result = hook(correx, root, payload("Write", "src/a.py", root))
    assert result.code == 2, result
    assert "HEAD has no .correx.toml" in result.stderr


def test_broken_profile_at_head_fails_closed_with_2(staged: Path, correx: Correx) -> None:
    write(staged, ".correx.toml", "version = [\n")
    git(staged, "commit", "-qam", "break the profile")
    result = hook(correx, staged, payload("Write", "src/a.py", staged))
    assert result.code == 2, result


def test_hook_mode_takes_no_paths_or_json(staged: Path, correx: Correx) -> None:
    body = payload("Write", "src/a.py", staged)
    assert hook(correx, staged, body, "write", "src/a.py").code == 2
    assert hook(correx, staged, body, "--json").code == 2
