"""Layer 1 of the operator decisions: every agent's PreToolUse (or its equivalent) shell call
that runs a decision reserved to people is denied before it runs, however it is spelled;
ordinary shell calls are allowed. Real `git correx assess --hook` processes, the payloads as
each agent sends them (tests/agents/conftest.py)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from gitcorrex.agents.hosts import AGENTS
from gitcorrex.model.operator_commands import OPERATOR_COMMANDS
from tests.agents.conftest import claude, copilot, cursor, gemini, hook
from tests.conftest import CliResult, run_correx

ARGS = {("plan", "authorize"): "plan.toml", ("plan", "audit"): "plan.toml",
        ("plan", "route"): "plan.toml --step S1 --split --reason too-big",
        ("resume",): "--reason go-on --budget 5", ("session", "clarify"): "src --reason ok",
        ("session", "adopt"): "--reason ok", ("step", "review"): "S1 --approve --reason ok",
        ("accept-tests",): "--reason refactored",
        ("plan", "lock"): "plan.toml --reason none"}
FLAGGED = {"--replaces": "plan lock plan.toml --session s1 --replaces=old.toml"}
OPERATOR_CALLS = [f"git correx {FLAGGED[command.flag]}" if command.flag in FLAGGED
                  else f"{command.name} {ARGS[command.words]}" for command in OPERATOR_COMMANDS]
CONFIG_CALLS = ["git config correx.requireSignedDecisions false",
                "git config --unset correx.requireSignedDecisions",
                "git config gpg.ssh.allowedSignersFile /tmp/my_signers",
                "git -c correx.requireSignedDecisions=false correx step start S2"]
ALLOWED_CALLS = ["git status --short && python -m pytest -q", "git correx verify",
                 "git correx step start S1", "git correx plan lock plan.toml",
                 "git config correx.requireSignedDecisions", "git correx log | grep resume",
                 "git -C . correx step start review-docs"]


def shell_payload(agent: str, root: Path, command: str) -> bytes:
    """A shell call before it runs, as `agent` sends it."""
    if agent in ("claude-code", "codex"):
        return claude("PreToolUse", root, "Bash", command=command, description="run it")
    if agent == "gemini":
        return gemini("BeforeTool", root, "run_shell_command", command=command,
                      description="run it")
    if agent == "copilot-cli":
        return copilot("preToolUse", root, "bash", command=command, description="run it")
    return cursor("beforeShellExecution", root, command=command, cwd=str(root))


def denied(agent: str, result: CliResult) -> str | None:
    """The reason `agent` is given when the call is denied; None when it is allowed."""
    if agent == "codex":
        assert result.code in (0, 2), result
        return result.stderr if result.code == 2 else None
    assert result.code == 0, result
    answer = json.loads(result.stdout) if result.stdout.strip() else {}
    if agent == "claude-code":
        output = answer.get("hookSpecificOutput", {})
        return output.get("permissionDecisionReason") \
            if output.get("permissionDecision") == "deny" else None
    if agent == "gemini":
        return answer.get("reason") if answer.get("decision") == "deny" else None
    if agent == "copilot-cli":
        return answer.get("permissionDecisionReason") \
            if answer.get("permissionDecision") == "deny" else None
    return answer.get("agent_message") if answer.get("permission") == "deny" else None


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("command", OPERATOR_CALLS + CONFIG_CALLS)
def test_every_operator_command_is_denied_before_it_runs(project: Path, agent: str,
                                                         command: str) -> None:
    reason = denied(agent, hook(project, agent, shell_payload(agent, project, command)))
    assert reason is not None, f"{agent} allowed {command!r}"
    assert "person" in reason and "docs/plan-authority.md" in reason


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("command", ALLOWED_CALLS)
def test_ordinary_shell_calls_are_allowed(project: Path, agent: str, command: str) -> None:
    assert denied(agent, hook(project, agent, shell_payload(agent, project, command))) is None


EVASIONS = [
    "FOO=1 git correx plan authorize plan.toml",
    "git status && git correx resume --reason x",
    "true; git correx session clarify src --reason x",
    "git log -1 | git correx plan audit plan.toml",
    "git correx verify\ngit correx plan authorize plan.toml",
    "env -u CLAUDECODE git correx plan authorize plan.toml",
    "sudo -E timeout 5 git -C . correx plan authorize plan.toml",
    "/usr/local/bin/git correx plan authorize plan.toml",
    "git-correx plan authorize plan.toml",
    "./.venv/bin/git-correx resume --reason x",
    "python -m gitcorrex plan authorize plan.toml",
    "python3 -mgitcorrex resume --reason x",
    "python3.11 -X dev -m gitcorrex session clarify src --reason x",
    "python -c 'from gitcorrex.cli import main; main()' plan authorize plan.toml",
    "python .venv/bin/git-correx plan authorize plan.toml",
    "bash -c 'git correx plan authorize plan.toml'",
    "sh -c \"cd . && git correx resume --reason x\"",
    "eval 'git correx plan route plan.toml --step S1 --split --reason r'",
    "echo \"$(git correx plan authorize plan.toml)\"",
    "echo `git correx plan authorize plan.toml`",
    "ssh localhost 'git correx plan authorize plan.toml'",
    "git cor\"\"rex plan auth\\orize plan.toml",
    "\"git\" 'correx' \"plan\" 'authorize' plan.toml",
    "git correx plan \"$CMD\" plan.toml",
    "c=correx; git $c plan authorize plan.toml",
    "printf 'git correx plan %s plan.toml' authorize | sh",
    "bash <<'EOF'\ngit correx plan authorize plan.toml\nEOF",
    "python - <<'EOF'\nimport subprocess\nsubprocess.run(['git', 'correx', 'resume'])\nEOF",
    "x#;git correx plan authorize plan.toml",
    "find . -name plan.toml -exec git correx plan authorize {} \\;",
    "git correx plan lock plan.toml $FLAGS",
    "git config CORREX.requireSignedDecisions false",
    "git config --global correx.requireSignedDecisions false",
    "git config set correx.requireSignedDecisions false",
    "git config --remove-section correx",
    "git config include.path /tmp/evil.cfg",
    "git config alias.ok '!git correx plan authorize plan.toml'",
    "git -c alias.ok='correx plan authorize' ok plan.toml",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=correx.requireSignedDecisions "
    "GIT_CONFIG_VALUE_0=false git correx step start S2",
    "git correx plan authorize 'plan.toml",
    "true && . ./authorize.sh # git correx",
]


@pytest.mark.parametrize("command", EVASIONS)
def test_evasions_are_denied(project: Path, command: str) -> None:
    result = hook(project, "claude-code", shell_payload("claude-code", project, command))
    assert denied("claude-code", result) is not None, f"allowed {command!r}"


def test_codex_exec_argument_list_is_read_as_shell_text(project: Path) -> None:
    payload = json.loads(claude("PreToolUse", project, "Bash", command="x"))
    payload["tool_input"]["command"] = ["bash", "-lc", "git correx plan authorize plan.toml"]
    result = hook(project, "codex", json.dumps(payload).encode())
    assert result.code == 2 and "plan authorize" in result.stderr, result


def test_a_shell_call_without_its_command_fails_closed(project: Path) -> None:
    payload = json.loads(claude("PreToolUse", project, "Bash", command="x"))
    del payload["tool_input"]["command"]
    result = hook(project, "claude-code", json.dumps(payload).encode())
    assert result.code == 2 and "no command string" in result.stderr, result


SHELL_TOOLS = {"claude-code": ("PreToolUse", "Bash"), "codex": ("PreToolUse", "Bash"),
               "gemini": ("BeforeTool", "run_shell_command"),
               "copilot-cli": ("preToolUse", None)}


@pytest.mark.parametrize("scope", ["default", "shared"])
@pytest.mark.parametrize("agent", AGENTS)
def test_installed_hooks_see_shell_calls_before_they_run(project: Path, agent: str, scope: str,
                                                         correx_on_path: dict[str, str]) -> None:
    """The installed matcher selects the agent's shell tool (Cursor: its own event), and the
    command written into the settings — the default file (Claude Code: its local one) and
    the shared one, which finds git correx through PATH — denies an operator command, run
    as the agent runs it."""
    extra = ["--shared"] if scope == "shared" else []
    result = run_correx(project, "hooks", "install", "--agent", agent, *extra, "--json")
    assert result.code == 0, result
    document = json.loads(Path(json.loads(result.stdout)["path"]).read_text())
    event, tool = SHELL_TOOLS.get(agent, ("beforeShellExecution", None))
    entries = document["hooks"][event]
    ours = [e for e in entries if tool is None or re.fullmatch(e["matcher"], tool)]
    assert ours, f"{agent}: no {event} entry matches {tool}"
    command = ours[0]["command"] if agent == "cursor" else ours[0]["bash"] \
        if agent == "copilot-cli" else ours[0]["hooks"][0]["command"]
    proc = subprocess.run(["sh", "-c", command], cwd=project, capture_output=True, check=False,
                          input=shell_payload(agent, project, OPERATOR_CALLS[0]),
                          env=correx_on_path)
    result = CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    assert denied(agent, result) is not None, result


@pytest.mark.parametrize("command", [
    "git correx plan lock next.json --session s1 --replaces plan.json",
    "git correx plan lock next.json --session s1 --replaces=plan.json",
])
def test_a_re_plan_is_denied_before_it_runs(project: Path, command: str) -> None:
    """A re-plan adopts a new plan and a new profile for a running session: a person's."""
    reason = denied("claude-code", hook(project, "claude-code",
                                        shell_payload("claude-code", project, command)))
    assert reason is not None and "plan lock --replaces" in reason, command
