"""Cursor's after-hooks report what already happened: an edit or a shell command outside
the manifest is named "outside the manifest", never "blocked" (nothing was), recorded, and
the answer is `{}` (after-hooks cannot block). Payloads as Cursor sends them."""

from __future__ import annotations

from pathlib import Path

from tests.agents.conftest import claude, cursor, hook, json_answer
from tests.conftest import write
from tests.manifest.conftest import recorded


def test_after_file_edit_outside_says_outside_the_manifest(project: Path) -> None:
    write(project, "docs/guide.md", "GUIDE\n")  # Cursor reports the edit once it is made
    result = hook(project, "cursor", cursor(
        "afterFileEdit", project, file_path=str(project / "docs" / "guide.md"),
        edits=[{"old_string": "guide", "new_string": "GUIDE"}], model="claude-4.5-sonnet"))
    assert json_answer(result) == {}
    first = result.stderr.splitlines()[0]
    assert first.startswith("git correx: this afterFileEdit (a write of ")
    assert "already happened, outside the manifest" in first
    assert "blocked" not in result.stderr.replace("nothing was blocked", "")
    assert "PATH_OUTSIDE_MANIFEST: docs/guide.md" in result.stderr
    assert len(recorded(project)) == 1


def test_after_shell_execution_outside_says_outside_the_manifest(project: Path) -> None:
    write(project, "docs/guide.md", "changed by sed\n")
    result = hook(project, "cursor", cursor(
        "afterShellExecution", project, command="sed -i s/guide/GUIDE/ docs/guide.md",
        output="", duration=12, sandbox=False))
    assert json_answer(result) == {}
    assert "outside the write manifest" in result.stderr
    assert "blocked" not in result.stderr


def test_before_hooks_still_say_blocked(project: Path) -> None:
    answer = json_answer(hook(project, "claude-code", claude(
        "PreToolUse", project, "Write", file_path=str(project / "docs" / "x.md"), content="x")))
    reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.startswith("git correx blocked this Write")
