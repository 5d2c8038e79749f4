"""`git correx doctor --agent NAME`: the installed hook command, run as the host runs it on
synthetic calls, proves it blocks — and says so when it does not (a command replaced by hand,
a matcher narrowed), when nothing is installed, and when two files make a host run it twice.
The probe writes nothing to the repository: no ledger event, no file."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from gitcorrex.agents.hosts import AGENTS, HOSTS
from gitcorrex.agents.install import LOCAL_FILES
from tests.conftest import CliResult, git, run_correx, write


def install(project: Path, agent: str) -> None:
    assert run_correx(project, "hooks", "install", "--agent", agent).code == 0


def installed(agent: str) -> str:
    """Where a plain `hooks install --agent` writes (Claude Code: its local file)."""
    return LOCAL_FILES.get(agent, HOSTS[agent].settings)


def doctor(project: Path, agent: str) -> CliResult:
    return run_correx(project, "doctor", "--agent", agent, timeout=300)


def findings(project: Path, agent: str, code: int) -> dict[str, dict[str, str]]:
    result = run_correx(project, "doctor", "--agent", agent, "--json", timeout=300)
    assert result.code == code, result
    report = json.loads(result.stdout)
    return {finding["subject"]: finding for finding in report["findings"]}


def tamper(project: Path, agent: str, command: str) -> None:
    """Replace the command of every hook git correx installed for `agent` by `command`."""
    path = project / installed(agent)
    document = json.loads(path.read_text())
    for entries in document["hooks"].values():
        for entry in entries:
            for hook in entry.get("hooks", [entry]):
                hook["bash" if "bash" in hook else "command"] = command
    path.write_text(json.dumps(document))


def snapshot(root: Path) -> tuple[str, str, list[str]]:
    """Every ref (the ledger's too), the work tree's status, and the git directory's files."""
    refs = git(root, "for-each-ref")
    status = git(root, "status", "--porcelain=v1", "--ignored", "-uall")
    files = sorted(str(path.relative_to(root)) for path in (root / ".git").rglob("*")
                   if path.name != "index")
    return refs, status, files


@pytest.mark.parametrize("agent", AGENTS)
def test_installed_hooks_are_proven_to_block(project: Path, agent: str) -> None:
    install(project, agent)
    found = findings(project, agent, 0)
    for subject in ("operator decision in a shell call", "ordinary shell call",
                    "stop on an unverified change"):
        assert found[subject]["level"] == "ok", found
    assert "blocked by" in found["operator decision in a shell call"]["message"]
    assert "allowed by" in found["ordinary shell call"]["message"]
    write_level = "info" if agent == "cursor" else "ok"  # Cursor hears of a write after it
    assert found["write outside the manifest"]["level"] == write_level, found


def test_the_probe_writes_nothing_to_the_repository(project: Path) -> None:
    """Its write and stop probes are judged (and recorded) in a throwaway repository."""
    install(project, "claude-code")
    write(project, "src/app.py", "VALUE = 2\n")  # an unverified change of the user's own
    git(project, "status")
    before = snapshot(project)
    assert doctor(project, "claude-code").code == 0
    assert snapshot(project) == before
    assert "refs/notes/correx" not in before[0]


@pytest.mark.parametrize("agent", ["claude-code", "copilot-cli"])
def test_a_command_replaced_by_true_is_reported_not_blocking(project: Path, agent: str
                                                              ) -> None:
    install(project, agent)
    tamper(project, agent, "true")
    found = findings(project, agent, 1)
    operator = found["operator decision in a shell call"]
    assert operator["level"] == "fail" and "NOT blocked" in operator["message"]
    assert "`true`" in operator["message"]
    assert found["stop on an unverified change"]["level"] == "fail"
    assert found["ordinary shell call"]["level"] == "ok"
    text = doctor(project, agent)
    assert text.code == 1 and "do NOT block" in text.stdout, text


def test_a_command_that_blocks_everything_is_a_broken_install(project: Path) -> None:
    install(project, "claude-code")
    tamper(project, "claude-code", "echo cannot start >&2; exit 2")
    found = findings(project, "claude-code", 3)
    assert found["ordinary shell call"]["level"] == "broken"
    assert "cannot start" in found["ordinary shell call"]["message"]


def test_a_narrowed_matcher_leaves_writes_unjudged(project: Path) -> None:
    install(project, "claude-code")
    path = project / installed("claude-code")
    document = json.loads(path.read_text())
    document["hooks"]["PreToolUse"][0]["matcher"] = "Read|Bash"
    path.write_text(json.dumps(document))
    found = findings(project, "claude-code", 1)
    assert found["write outside the manifest"]["level"] == "fail"
    assert "no PreToolUse hook for Edit" in found["write outside the manifest"]["message"]


def test_nothing_installed_is_exit_3_with_the_install_command(project: Path) -> None:
    result = doctor(project, "copilot-cli")
    assert result.code == 3, result
    assert "no hooks for GitHub Copilot CLI" in result.stdout
    assert "git correx hooks install --agent copilot-cli" in result.stdout


def test_a_settings_file_that_does_not_parse_is_exit_3(project: Path) -> None:
    write(project, ".cursor/hooks.json", "{ not json")
    result = doctor(project, "cursor")
    assert result.code == 3 and ".cursor/hooks.json" in result.stdout, result


@pytest.mark.parametrize(("host", "other", "fix"), [
    ("cursor", "claude-code", "third-party"), ("copilot-cli", "claude-code", ".claude/")])
def test_double_registration_is_named_with_the_fix(project: Path, host: str, other: str,
                                                   fix: str) -> None:
    install(project, host)
    install(project, other)
    found = findings(project, host, 0)
    double = found["double registration"]
    assert double["level"] == "warn"
    assert installed(other) in double["message"] and installed(host) in double["message"]
    assert fix in double["fix"]
    assert "double registration" not in findings(project, "gemini", 3)


def test_one_file_per_host_is_no_double_registration(project: Path) -> None:
    install(project, "claude-code")
    install(project, "gemini")  # Gemini CLI does not load Claude Code's file
    assert "double registration" not in findings(project, "gemini", 0)
    assert "double registration" not in findings(project, "claude-code", 0)


def test_the_probe_runs_the_command_with_sh_in_the_repository(project: Path) -> None:
    """A command that only works from the repository's top level (a relative path) runs."""
    install(project, "gemini")
    path = project / ".gemini/settings.json"
    command = json.loads(path.read_text())["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
    write(project, "bin/gate.sh", command + "\n")
    subprocess.run(["chmod", "+x", str(project / "bin/gate.sh")], check=True)
    tamper(project, "gemini", "./bin/gate.sh")
    assert doctor(project, "gemini").code == 0


def test_exit_2_does_not_block_in_copilot_cli(project: Path) -> None:
    """Copilot CLI skips a hook that exits non-zero, 2 included: the tool runs."""
    install(project, "copilot-cli")
    tamper(project, "copilot-cli", "echo denied >&2; exit 2")
    found = findings(project, "copilot-cli", 1)
    assert found["operator decision in a shell call"]["level"] == "fail"
    assert found["ordinary shell call"]["level"] == "ok"


@pytest.mark.parametrize(("agent", "file"), [
    ("claude-code", ".claude/settings.json"), ("copilot-cli", ".github/hooks/zz.json")])
def test_a_file_turning_every_hook_off_is_a_failure(project: Path, agent: str, file: str
                                                    ) -> None:
    """One key an agent could write beside the installed hooks ends the gate: the probe,
    which runs the commands itself, would not see it."""
    install(project, agent)
    write(project, file, json.dumps({"version": 1, "disableAllHooks": True, "hooks": {}}))
    found = findings(project, agent, 1)
    assert found["hooks turned off"]["level"] == "fail"
    assert file in found["hooks turned off"]["message"]


def test_a_copilot_entrys_own_directory_and_variables_are_honoured(project: Path) -> None:
    """Copilot CLI runs an entry in its `cwd` (relative to the repository) with its `env`."""
    install(project, "copilot-cli")
    path = project / ".github/hooks/git-correx.json"
    document = json.loads(path.read_text())
    original = document["hooks"]["preToolUse"][0]["bash"]
    write(project, "hooks/gate.sh", f'test "$GATE" = on && {original}\n')
    subprocess.run(["chmod", "+x", str(project / "hooks/gate.sh")], check=True)
    document["hooks"]["preToolUse"][0].update(bash="./gate.sh", cwd="hooks",
                                              env={"GATE": "on"})
    path.write_text(json.dumps(document))
    found = findings(project, "copilot-cli", 0)
    assert found["operator decision in a shell call"]["level"] == "ok", found


def test_a_hook_installed_as_python_m_is_named_for_reinstalling(project: Path) -> None:
    """What install wrote before: `python -m gitcorrex`, which puts the project directory
    first on `sys.path`. It still blocks what it must, so the probe passes, but says so."""
    install(project, "claude-code")
    assert "hook command" not in findings(project, "claude-code", 0)
    tamper(project, "claude-code",
           f"{shlex.quote(sys.executable)} -m gitcorrex assess --hook claude-code || exit 2")
    found = findings(project, "claude-code", 0)["hook command"]
    assert found["level"] == "warn" and "python -m gitcorrex" in found["message"], found
    assert found["fix"] == "git correx hooks install --agent claude-code"
