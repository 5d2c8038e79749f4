"""Hooks a team can share (issue 27): the file a team commits carries a portable command
(no path of this machine), the local file is this machine's (pinned interpreter, fail
closed) and git ignores it, a teammate without git-correx gets one line instead of a blocked
agent, and correx's own hook files are never a manifest violation — exactly its own: an
edit smuggled into the same file is. Real `git correx` processes, the commands run as the
agents run them (`sh -c`), real payloads."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from gitcorrex.agents.install import LAUNCH, LAYOUTS, LOCAL_FILES
from tests.agents.conftest import bare_path, claude, copilot, cursor, gemini, json_answer
from tests.agents.test_operator_calls import denied, shell_payload
from tests.conftest import REPO_ROOT, CliResult, git, run_correx, write
from tests.hooks.conftest import commit, run_git
from tests.hooks.conftest import install as install_git_hooks

AGENTS = list(LAYOUTS)
# the event after a shell call, and its payload, per agent
AFTER_SHELL = {"claude-code": ("PostToolUse", "Bash"), "codex": ("PostToolUse", "Bash"),
               "gemini": ("AfterTool", "run_shell_command"),
               "cursor": ("afterShellExecution", None), "copilot-cli": ("postToolUse", "bash")}


def installed(project: Path, agent: str, *args: str) -> dict[str, object]:
    result = run_correx(project, "hooks", "install", "--agent", agent, *args, "--json")
    assert result.code == 0, result
    answer: dict[str, object] = json.loads(result.stdout)
    return answer


def first_command(document: dict[str, object]) -> str:
    hooks: dict[str, list[dict[str, object]]] = document["hooks"]  # type: ignore[assignment]
    entry = next(iter(hooks.values()))[0]
    inner = entry.get("hooks")
    if inner is None:  # Cursor's flat entry; Copilot CLI's names its shell
        return str(entry.get("bash", entry.get("command")))
    return str(inner[0]["command"])  # type: ignore[index]


def machine_paths() -> list[str]:
    """Paths only this machine has: the interpreter (as named and resolved), its prefix."""
    return sorted({sys.executable, os.path.realpath(sys.executable), sys.prefix,
                   str(REPO_ROOT)})


def assert_portable(text: str) -> None:
    for path in machine_paths():
        assert path not in text, f"{path} in a file meant to be committed:\n{text}"
    assert "python" not in text and "-m gitcorrex" not in text, text
    assert "git correx assess --hook " in text, text


def run_as_agent(project: Path, command: str, payload: bytes,
                 env: dict[str, str]) -> CliResult:
    proc = subprocess.run(["sh", "-c", command], cwd=project, input=payload, env=env,
                          capture_output=True, check=False, timeout=120)
    return CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def after_shell(agent: str, project: Path) -> bytes:
    event, tool = AFTER_SHELL[agent]
    if agent == "gemini":
        return gemini(event, project, tool, command="make")
    if agent == "cursor":
        return cursor(event, project, command="make", output="", duration=1)
    if agent == "copilot-cli":
        return copilot(event, project, tool, command="make")
    return claude(event, project, tool, command="make")


# -- no path of this machine in anything meant to be committed --------------------------

@pytest.mark.parametrize("agent", AGENTS)
def test_the_shared_file_and_its_print_hold_no_path_of_this_machine(project: Path,
                                                                   agent: str) -> None:
    printed = run_correx(project, "hooks", "install", "--agent", agent, "--shared", "--print")
    assert printed.code == 0, printed
    assert_portable(printed.stdout)
    answer = installed(project, agent, "--shared")
    assert answer["scope"] == "shared" and answer["path"] == str(project / LAYOUTS[agent][0])
    written = (project / LAYOUTS[agent][0]).read_text()
    assert_portable(written)
    assert written == printed.stdout


@pytest.mark.parametrize("agent", [agent for agent in AGENTS if agent not in LOCAL_FILES])
def test_a_host_without_a_local_file_gets_the_portable_command_by_default(
        project: Path, agent: str) -> None:
    printed = run_correx(project, "hooks", "install", "--agent", agent, "--print")
    assert printed.code == 0, printed
    assert_portable(printed.stdout)
    assert installed(project, agent)["scope"] == "shared"


# -- the local file: this machine's, fail closed, ignored by git ------------------------

def test_the_local_file_pins_this_interpreter_and_git_ignores_it(project: Path) -> None:
    answer = installed(project, "claude-code")
    local = project / ".claude/settings.local.json"
    assert answer["scope"] == "local" and answer["path"] == str(local)
    assert first_command(json.loads(local.read_text())) == (
        f"{sys.executable} -c {shlex.quote(LAUNCH)} assess --hook claude-code || exit 2")
    assert git(project, "status", "--porcelain", "--untracked-files=all") == ""
    exclude = project / ".git/info/exclude"
    assert "/.claude/settings.local.json" in exclude.read_text()
    installed(project, "claude-code")  # again: one line, not two
    assert exclude.read_text().count("/.claude/settings.local.json") == 1
    assert not (project / ".gitignore").exists()


def test_an_already_ignored_local_file_adds_nothing_to_exclude(project: Path) -> None:
    write(project, ".gitignore", ".claude/settings.local.json\n")
    git(project, "add", ".gitignore")
    git(project, "commit", "-qm", "ignore it")
    before = (project / ".git/info/exclude").read_text() \
        if (project / ".git/info/exclude").exists() else ""
    assert installed(project, "claude-code")["excluded"] is None
    after = (project / ".git/info/exclude").read_text() \
        if (project / ".git/info/exclude").exists() else ""
    assert after == before
    assert (project / ".gitignore").read_text() == ".claude/settings.local.json\n"


def test_a_tracked_local_file_is_refused_and_left_untouched(project: Path) -> None:
    write(project, ".claude/settings.local.json", "{}\n")
    git(project, "add", ".claude/settings.local.json")
    git(project, "commit", "-qm", "someone committed it")
    result = run_correx(project, "hooks", "install", "--agent", "claude-code")
    assert result.code == 2, result
    assert ".claude/settings.local.json is tracked by git" in result.stderr
    assert "--shared" in result.stderr
    assert (project / ".claude/settings.local.json").read_text() == "{}\n"


# -- a teammate without git-correx: one line, the tool runs ---------------------------------

def teammate_clone(project: Path, agent: str) -> tuple[Path, str]:
    """The shared file installed and committed here, then cloned: a teammate's clone (no
    install ran in it), and the command its settings hold."""
    installed(project, agent, "--shared")
    git(project, "add", LAYOUTS[agent][0])
    git(project, "commit", "-qm", "share the agent hooks")
    clone = project.parent / "teammate"
    git(project.parent, "clone", "-q", str(project), str(clone))
    return clone, first_command(json.loads((clone / LAYOUTS[agent][0]).read_text()))


@pytest.mark.parametrize("agent", AGENTS)
def test_without_git_correx_a_teammate_gets_one_line_and_the_tool_runs(project: Path,
                                                                     agent: str) -> None:
    clone, command = teammate_clone(project, agent)
    result = run_as_agent(clone, command, after_shell(agent, clone),
                          {"PATH": bare_path(), "HOME": str(clone)})
    assert result.code == 1, result  # a non-blocking hook error in every host: the tool runs
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert "git-correx is not on PATH" in line and "pipx install git-correx" in line
    assert agent in line


@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_without_git_correx_the_installing_clone_still_fails_closed(project: Path,
                                                                   agent: str) -> None:
    """An agent that uninstalls git-correx or edits PATH on the machine that installed the
    hooks does not turn the gate off: the shared command blocks there, in one line."""
    clone, command = teammate_clone(project, agent)
    result = run_as_agent(project, command, after_shell(agent, project),
                          {"PATH": bare_path(), "HOME": str(project)})
    assert result.code == 2, result
    (line,) = result.stderr.splitlines()
    assert "gone from PATH on the clone that installed" in line and "blocked" in line
    assert (clone / ".git").is_dir()


def test_with_git_correx_on_path_the_shared_hook_judges(project: Path,
                                                        correx_on_path: dict[str, str]) -> None:
    """The same portable command, on a machine that has git-correx: a write outside the
    manifest is reported after the shell call (the gate really runs through PATH)."""
    installed(project, "claude-code", "--shared")
    command = first_command(json.loads((project / ".claude/settings.json").read_text()))
    write(project, "README.md", "rewritten\n")
    result = run_as_agent(project, command, after_shell("claude-code", project),
                          correx_on_path)
    answer = json_answer(result)
    assert answer["decision"] == "block" and "README.md" in answer["reason"]
    assert ".claude/settings.json" not in answer["reason"]


# -- correx's own hook files are never a manifest violation ------------------------------

@pytest.mark.parametrize("agent", AGENTS)
def test_installed_shared_hooks_do_not_flag_themselves(project: Path, agent: str,
                                                       correx_on_path: dict[str, str]) -> None:
    """Stage `implement` writes only /src and /tests; after installing, the agent's next
    shell call — before it runs and after — is allowed (the installed command, real
    payloads)."""
    installed(project, agent, "--shared")
    command = first_command(json.loads((project / LAYOUTS[agent][0]).read_text()))
    before = run_as_agent(project, command, shell_payload(agent, project, "make test"),
                          correx_on_path)
    assert denied(agent, before) is None, before
    after = run_as_agent(project, command, after_shell(agent, project), correx_on_path)
    assert after.code == 0, after
    assert "outside" not in after.stdout + after.stderr, after


def test_the_local_file_does_not_flag_itself(project: Path) -> None:
    installed(project, "claude-code")
    command = first_command(json.loads(
        (project / ".claude/settings.local.json").read_text()))
    result = run_as_agent(project, command, after_shell("claude-code", project),
                          dict(os.environ, PYTHONPATH=str(REPO_ROOT)))
    assert (result.code, result.stdout) == (0, ""), result


def test_installing_into_a_committed_settings_file_is_not_flagged(
        project: Path, correx_on_path: dict[str, str]) -> None:
    """The team's own settings are committed; installing merges our entries: still ours."""
    write(project, ".claude/settings.json",
          json.dumps({"permissions": {"allow": ["Bash(make)"]}}, indent=4))
    git(project, "add", ".claude/settings.json")
    git(project, "commit", "-qm", "team settings")
    installed(project, "claude-code", "--shared")
    command = first_command(json.loads((project / ".claude/settings.json").read_text()))
    result = run_as_agent(project, command, after_shell("claude-code", project),
                          correx_on_path)
    assert (result.code, result.stdout) == (0, ""), result


def smuggled(document: dict[str, object], how: str) -> str:
    """The installed settings with one edit an agent would like to slip in."""
    hooks: dict[str, list[dict[str, object]]] = document["hooks"]  # type: ignore[assignment]
    if how == "permission":
        return json.dumps({**document, "permissions": {"allow": ["Bash(*)"]}}, indent=2) + "\n"
    if how == "matcher":
        hooks["PreToolUse"][0]["matcher"] = "Write|Edit"  # Bash no longer judged before
        return json.dumps(document, indent=2) + "\n"
    if how == "allow-all":
        hooks["PostToolUse"][0]["hooks"] = [{"type": "command", "command": "exit 0"}]
        return json.dumps(document, indent=2) + "\n"
    # a duplicate key first: Python keeps the last (ours, so the parsed document is exactly
    # what install writes), a strict reader refuses the whole file: the hooks are off
    return '{\n  "hooks": {},' + (json.dumps(document, indent=2) + "\n")[1:]


@pytest.mark.parametrize("how", ["permission", "matcher", "allow-all", "duplicate"])
def test_an_edit_smuggled_into_the_hook_file_is_flagged(project: Path, how: str,
                                                        correx_on_path: dict[str, str]) -> None:
    installed(project, "claude-code", "--shared")
    settings = project / ".claude/settings.json"
    settings.write_text(smuggled(json.loads(settings.read_text()), how))
    command = "git correx assess --hook claude-code"
    result = run_as_agent(project, command, after_shell("claude-code", project),
                          correx_on_path)
    answer = json_answer(result)
    assert answer["decision"] == "block", answer
    assert ".claude/settings.json: added outside the manifest" in answer["reason"]


# -- committing them: the pre-commit hook judges them the same way ------------------------

@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_committing_the_installed_shared_hooks_passes_the_pre_commit_hook(project: Path,
                                                                        agent: str) -> None:
    install_git_hooks(project)
    installed(project, agent, "--shared")
    git(project, "add", LAYOUTS[agent][0])
    result = commit(project, message="share the agent hooks")
    assert result.code == 0, result


def test_committing_a_smuggled_edit_of_the_hook_file_is_blocked(project: Path) -> None:
    install_git_hooks(project)
    installed(project, "claude-code", "--shared")
    settings = project / ".claude/settings.json"
    settings.write_text(smuggled(json.loads(settings.read_text()), "permission"))
    git(project, "add", ".claude/settings.json")
    result = commit(project, message="share the agent hooks")
    assert result.code == 1, result
    assert "PATH_OUTSIDE_MANIFEST .claude/settings.json: added" in result.stderr


def test_the_range_gate_passes_the_hook_file_as_installed_and_flags_a_smuggled_edit(
        project: Path) -> None:
    """CI's `check BASE..HEAD` (and pre-push, the same range check) judges as pre-commit."""
    installed(project, "codex")
    git(project, "add", ".codex/hooks.json")
    git(project, "commit", "-qm", "share the agent hooks")
    clean = run_correx(project, "check", "HEAD~1..HEAD", "--stage", "implement")
    assert clean.code == 0, clean
    settings = project / ".codex/hooks.json"
    document = json.loads(settings.read_text())
    document["hooks"]["PreToolUse"][0]["matcher"] = "Edit|Write"
    settings.write_text(json.dumps(document, indent=2) + "\n")
    git(project, "commit", "-qam", "narrow the matcher")
    narrowed = run_correx(project, "check", "HEAD~2..HEAD", "--stage", "implement")
    assert narrowed.code == 1, narrowed
    assert ".codex/hooks.json" in narrowed.stdout


def test_pushing_the_hook_file_as_installed_passes_the_pre_push_hook(project: Path,
                                                                    tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(project, "remote", "add", "origin", str(remote))
    git(project, "push", "-q", "origin", "main")
    git(project, "remote", "set-head", "origin", "main")
    install_git_hooks(project, "--pre-push")
    installed(project, "gemini")
    git(project, "add", ".gemini/settings.json")
    git(project, "commit", "-q", "--no-verify", "-m", "share the agent hooks")
    result = run_git(project, "push", "-q", "origin", "main")
    assert result.code == 0, result
