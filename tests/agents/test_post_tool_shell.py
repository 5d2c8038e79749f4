"""After a shell call, every path changed since the baseline is judged against the manifest:
an out-of-manifest change is reported back in the agent's own format and recorded; changes
inside the manifest pass silently."""

from __future__ import annotations

from pathlib import Path

from gitcorrex.model.assessment import Rule
from tests.agents.conftest import CONVERSATION, claude, gemini, hook, json_answer
from tests.conftest import git, write
from tests.manifest.conftest import assessment, recorded


def test_bash_writing_outside_the_manifest_is_blocked_naming_the_path(project: Path) -> None:
    write(project, "README.md", "rewritten by echo\n")  # what `echo > README.md` left
    answer = json_answer(hook(project, "claude-code",
                              claude("PostToolUse", project, "Bash", command="echo > README.md")))
    assert answer["decision"] == "block"
    assert "README.md: modified outside the manifest of stage 'implement'" in answer["reason"]
    assert "git restore --source=HEAD" in answer["reason"]
    (event,) = recorded(project)
    fields = assessment(event)
    assert (fields.origin, fields.action, fields.rule) == ("post-tool", "write",
                                                          Rule.PATH_OUTSIDE_MANIFEST)
    assert [path.path for path in fields.paths] == ["README.md"]
    assert fields.agent is not None and fields.agent.conversation == CONVERSATION
    assert event.session is None


def test_a_deletion_and_a_new_file_outside_are_both_named(project: Path) -> None:
    (project / "docs" / "guide.md").unlink()
    write(project, "generated/out.txt", "x\n")
    reason = json_answer(hook(project, "claude-code",
                              claude("PostToolUse", project, "Bash", command="rm -rf docs")))
    assert "docs/guide.md: deleted outside" in reason["reason"]
    assert "generated/out.txt: added outside" in reason["reason"]


def test_bash_writing_inside_the_manifest_is_silent(project: Path) -> None:
    write(project, "src/new.py", "x = 2\n")
    write(project, "tests/test_new.py", "def test(): pass\n")
    result = hook(project, "claude-code",
                  claude("PostToolUse", project, "Bash", command="sed -i s/1/2/ src/app.py"))
    assert (result.code, result.stdout, result.stderr) == (0, "", ""), result
    assert recorded(project) == []


def test_no_stage_and_no_session_restricts_nothing(project: Path) -> None:
    git(project, "config", "--unset", "correx.stage")
    write(project, "README.md", "changed\n")
    result = hook(project, "claude-code", claude("PostToolUse", project, "Bash", command="x"))
    assert (result.code, result.stdout) == (0, ""), result


def test_a_committed_out_of_manifest_change_is_not_reported_again(project: Path) -> None:
    write(project, "README.md", "accepted\n")
    git(project, "commit", "-qam", "accepted by a person")
    result = hook(project, "claude-code", claude("PostToolUse", project, "Bash", command="x"))
    assert (result.code, result.stdout) == (0, ""), result


def test_codex_bash_after_the_fact_is_exit_2_with_stderr(project: Path) -> None:
    write(project, "README.md", "rewritten\n")
    result = hook(project, "codex", claude("PostToolUse", project, "Bash",
                                           command="bash -lc 'echo > README.md'"))
    assert (result.code, result.stdout) == (2, ""), result
    assert "README.md: modified outside the manifest" in result.stderr


def test_gemini_shell_after_the_fact_is_denied_in_json(project: Path) -> None:
    write(project, "docs/new.md", "x\n")
    answer = json_answer(hook(project, "gemini", gemini("AfterTool", project,
                                                        "run_shell_command",
                                                        command="echo x > docs/new.md")))
    assert answer["decision"] == "deny"
    assert "docs/new.md: added outside" in answer["reason"]


def test_a_file_tool_after_the_fact_is_not_rescanned(project: Path) -> None:
    write(project, "README.md", "changed\n")
    result = hook(project, "claude-code", claude("PostToolUse", project, "Write",
                                                 file_path=str(project / "src" / "a.py")))
    assert (result.code, result.stdout) == (0, ""), result
