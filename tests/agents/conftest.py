"""A committed project with a stage manifest and a passing expectation, and the payloads
each agent sends, spelled exactly as that agent spells them."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT, CliResult, git, run_correx

Correx = Callable[..., CliResult]
CHECK_SCRIPT = "import pathlib, sys\nsys.exit('FAIL' in pathlib.Path('src/app.py').read_text())\n"
PROFILE = f"""version = 1
[commands]
check = '{sys.executable} check.py'
[expectations]
check = ["check"]
[defaults]
verify_before_stop = true
[stages.implement]
build_expectation = "check"
writes = ["/src/**", "/tests/**"]
"""
CONVERSATION = "0b6c9b1e-2f5e-4a55-9f0e-3f4d2c1b0a99"


@pytest.fixture
def project(make_repo: Callable[..., Path]) -> Path:
    """src/ and docs/ committed; stage `implement` (selected) may write /src and /tests; its
    expectation passes unless src/app.py contains FAIL; Stop hooks want a pass."""
    root = make_repo(files={"README.md": "hello\n", "src/app.py": "VALUE = 1\n",
                            "docs/guide.md": "guide\n", ".correx.toml": PROFILE,
                            "check.py": CHECK_SCRIPT})
    git(root, "config", "correx.stage", "implement")
    return root


def claude(event: str, root: Path, tool: str | None = None, **tool_input: Any) -> bytes:
    """What Claude Code (and Codex, which shares its schema) sends on stdin."""
    document: dict[str, Any] = {"session_id": CONVERSATION,
                                "transcript_path": "/tmp/transcript.jsonl", "cwd": str(root),
                                "permission_mode": "default", "hook_event_name": event}
    if tool is not None:
        document.update(tool_name=tool, tool_input=tool_input, tool_use_id="toolu_01")
    if event == "PostToolUse":
        document["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False}
    if event == "Stop":
        document["stop_hook_active"] = False
    return json.dumps(document).encode()


def gemini(event: str, root: Path, tool: str | None = None, **tool_input: Any) -> bytes:
    """What Gemini CLI sends on stdin."""
    document: dict[str, Any] = {"session_id": "gemini-session-1", "cwd": str(root),
                                "transcript_path": "/tmp/gemini.json",
                                "hook_event_name": event,
                                "timestamp": "2026-01-01T00:00:00.000Z"}
    if tool is not None:
        document.update(tool_name=tool, tool_input=tool_input)
    if event == "AfterTool":
        document["tool_response"] = {"llmContent": "", "returnDisplay": ""}
    if event == "AfterAgent":
        document.update(prompt="fix it", prompt_response="done", stop_hook_active=False)
    return json.dumps(document).encode()


def cursor(event: str, root: Path, **fields: Any) -> bytes:
    """What Cursor sends on stdin for its own hooks."""
    document: dict[str, Any] = {"hook_event_name": event, "conversation_id": "conv-123",
                                "generation_id": "gen-456", "workspace_roots": [str(root)],
                                "cursor_version": "1.7.2"}
    document.update(fields)
    return json.dumps(document).encode()


def copilot(event: str, root: Path, tool: str | None = None, *, args_as_text: bool = False,
            **tool_args: Any) -> bytes:
    """What GitHub Copilot CLI sends on stdin for its camelCase hooks (`preToolUse`,
    `postToolUse`, `agentStop`): no event name; `toolArgs` an object, or (older releases,
    `args_as_text`) the same object as a JSON string."""
    document: dict[str, Any] = {"sessionId": "copilot-session-7", "timestamp": 1704614600000,
                                "cwd": str(root)}
    if tool is not None:
        document.update(toolName=tool,
                        toolArgs=json.dumps(tool_args) if args_as_text else tool_args)
    if event == "postToolUse":
        document["toolResult"] = {"resultType": "success", "textResultForLlm": ""}
    if event == "agentStop":
        document.update(transcriptPath="/tmp/copilot-transcript.jsonl", stopReason="end_turn")
    return json.dumps(document).encode()


def hook(root: Path, agent: str, stdin: bytes, *args: str) -> CliResult:
    return run_correx(root, "assess", "--hook", agent, *args, input=stdin)


def json_answer(result: CliResult) -> dict[str, Any]:
    """A structured answer: exit 0, one JSON object on stdout."""
    assert result.code == 0, result
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


@pytest.fixture
def correx_on_path(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH has `git-correx` (a shim running this checkout) and git."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "git-correx"
    shim.write_text(f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(REPO_ROOT))} "
                    f'exec {shlex.quote(sys.executable)} -m gitcorrex "$@"\n')
    shim.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{bare_path()}"}


def bare_path() -> str:
    """A PATH with git and sh and without git-correx (a teammate who never installed it)."""
    dirs = {str(Path(str(shutil.which(name))).parent) for name in ("git", "sh")}
    path = os.pathsep.join(sorted(dirs))
    if shutil.which("git-correx", path=path):
        pytest.skip("git-correx is installed system-wide here")
    return path
