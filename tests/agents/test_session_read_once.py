"""An agent's call inside a session reads the session's state once: the manifest it is
judged by, the baseline its shell check diffs against and the Stop gate's baseline all come
from that one reading (one snapshot of the ledger, one `git ls-tree`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcorrex.agents.request import HookOptions
from gitcorrex.agents.run import answer
from gitcorrex.session import state as session_state_module
from tests.conftest import git, run_correx
from tests.session.conftest import cli, locked, plans, project  # noqa: F401  (fixtures)


def payload(root: Path, event: str, tool: str | None, **tool_input: object) -> bytes:
    document: dict[str, object] = {"session_id": "conversation-1", "cwd": str(root),
                                   "transcript_path": "/dev/null", "hook_event_name": event,
                                   "permission_mode": "default"}
    if tool is not None:
        document.update(tool_name=tool, tool_input=tool_input, tool_use_id="t1")
    return json.dumps(document).encode()


@pytest.mark.parametrize(("event", "tool", "tool_input"), [
    ("PreToolUse", "Write", {"file_path": "src/a.py", "content": "A = 1\n"}),
    ("PreToolUse", "Write", {"file_path": "docs/out.md", "content": "no\n"}),
    ("PostToolUse", "Bash", {"command": "true"}),
])
def test_a_call_in_a_session_reads_its_state_once(locked: tuple[Path, str], event: str,  # noqa: F811
                                                  tool: str, tool_input: dict[str, object],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    root, session = locked
    git(root, "config", "correx.session", session)
    assert run_correx(root, "step", "start", "S1").code == 0  # its writes are in force
    asked: list[str] = []
    real = session_state_module.session_state

    def counted(repo: object, chosen: str) -> object:
        asked.append(chosen)
        return real(repo, chosen)  # type: ignore[arg-type]

    monkeypatch.setattr(session_state_module, "session_state", counted)
    reply = answer("claude-code", payload(root, event, tool, **tool_input), HookOptions(),
                   default_cwd=root)
    assert reply.exit_code in (0, 2), reply
    assert asked == [session], reply
