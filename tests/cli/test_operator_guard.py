"""Layer 2 of the operator decisions: an operator command refuses to run inside a known
agent runtime (exit 1, naming the marker and what a person does instead), and nothing is
recorded; other commands, and a person's shell, are not affected. Real `git correx`
processes with the agents' environment markers set."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.cli.operator_guard import AGENT_RUNTIMES
from gitcorrex.model.operator_commands import OPERATOR_COMMANDS
from tests.conftest import CliResult, git, run_correx

MARKERS = [(runtime.agent, marker) for runtime in AGENT_RUNTIMES for marker in runtime.markers]
ARGS = {("plan", "authorize"): ["plan.toml"], ("plan", "audit"): ["plan.toml"],
        ("plan", "route"): ["plan.toml", "--step", "S1", "--split", "--reason", "r"],
        ("resume",): ["--reason", "go on", "--budget", "5"],
        ("session", "clarify"): ["src", "--reason", "ok"],
        ("session", "adopt"): ["--reason", "ok"],
        ("step", "review"): ["S1", "--approve", "--reason", "ok"],
        ("accept-tests",): ["--reason", "refactored"],
        ("plan", "lock"): ["plan.toml", "--baseline-unverified", "--reason", "none yet"]}
FLAGGED = {"--replaces": ["plan.toml", "--session", "s1", "--replaces=old.toml"]}
CALLS = [[*command.words, *FLAGGED.get(command.flag or "", ARGS[command.words])]
         for command in OPERATOR_COMMANDS]
LEDGER = "refs/notes/correx"


@pytest.fixture
def repo(make_repo: Callable[..., Path]) -> Path:
    return make_repo(files={"README.md": "hello\n"})


def refused(result: CliResult, marker: str) -> bool:
    return result.code == 1 and f"{marker}=" in result.stderr and \
        "reserved to people" in result.stderr and "own terminal" in result.stderr


def no_ledger(repo: Path) -> bool:
    return git(repo, "for-each-ref", LEDGER).strip() == ""


@pytest.mark.parametrize(("agent", "marker"), MARKERS)
def test_each_agent_runtime_marker_refuses_an_operator_command(
        repo: Path, agent: str, marker: str) -> None:
    result = run_correx(repo, *CALLS[0], env={marker: "1"})
    assert refused(result, marker), result
    assert agent in result.stderr and no_ledger(repo)


@pytest.mark.parametrize("call", CALLS, ids=[" ".join(c[:2]) for c in CALLS])
def test_every_operator_command_is_refused_inside_claude_code(repo: Path,
                                                              call: list[str]) -> None:
    result = run_correx(repo, *call, env={"CLAUDECODE": "1"})
    assert refused(result, "CLAUDECODE"), result
    assert no_ledger(repo)


def test_without_a_marker_the_command_runs(repo: Path) -> None:
    """The same call from a person's shell reaches the command (here: it has no plan)."""
    result = run_correx(repo, *CALLS[0], env={"CLAUDECODE": ""})
    assert result.code == 2 and "reserved to people" not in result.stderr, result


def test_other_commands_run_inside_an_agent(repo: Path) -> None:
    assert run_correx(repo, "state", env={"CLAUDECODE": "1"}).code == 0
    lock = run_correx(repo, "plan", "lock", "plan.toml", env={"CLAUDECODE": "1"})
    assert "reserved to people" not in lock.stderr, lock
    assert run_correx(repo, "help", "plan", env={"GEMINI_CLI": "1"}).code == 0


def test_a_re_plan_is_refused_inside_an_agent(repo: Path) -> None:
    result = run_correx(repo, "plan", "lock", "next.json", "--session", "s1",
                        "--replaces=plan.json", env={"CLAUDECODE": "1"})
    assert refused(result, "CLAUDECODE") and "--replaces" in result.stderr, result
    assert no_ledger(repo)
