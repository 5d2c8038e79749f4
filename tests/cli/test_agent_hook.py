"""`assess --hook AGENT`'s own entry (cli/agent_hook.py): whatever ends the process before
the runner answers — a stop signal while the modules load, a usage error that click
reports — is still the agent's blocking answer, exit 2 (for every agent any other code lets
the tool run), in the one boundary's words. Nothing re-maps the code after the boundary.

Real processes. The signal is sent by the process to itself at the first import of a chosen
module, so it lands exactly there: before the runner began. Each call is an allowed write,
which a run without the signal answers with exit 0.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.agents.conftest import claude
from tests.cli.test_boundary import correx_env, default_stop_signals
from tests.conftest import CliResult, run_correx

HOOK = ("assess", "--hook", "claude-code")
STOP_AT_IMPORT = """
import os, signal, sys

class StopAt:
    def find_spec(self, name, path=None, target=None):
        if name == sys.argv[1]:  # the first import of that module: SIGTERM, to ourselves
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGTERM)
        return None

sys.meta_path.insert(0, StopAt())
from gitcorrex.cli import main
main(sys.argv[2:])
"""


def allowed_write(root: Path) -> bytes:
    return claude("PreToolUse", root, "Write", file_path=str(root / "src" / "new.py"),
                  content="x\n")


def stopped_at_import(root: Path, module: str, *args: str) -> CliResult:
    """`git correx ARGS` with SIGTERM arriving as `module` is first imported."""
    proc = subprocess.run([sys.executable, "-c", STOP_AT_IMPORT, module, *args], cwd=root,
                          env=correx_env(), input=allowed_write(root), capture_output=True,
                          check=False, timeout=120, preexec_fn=default_stop_signals)
    return CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def assert_blocked_by_sigterm(result: CliResult) -> None:
    assert result.code == 2, result
    assert "so it is blocked (fail closed)" in result.stderr, result
    assert "interrupted (SIGTERM)" in result.stderr, result
    assert "(as a command this would exit 143)" in result.stderr, result


@pytest.mark.parametrize("args", [HOOK, (*HOOK, "--")], ids=["click-free", "click"])
def test_the_write_is_allowed_when_nothing_stops_the_hook(project: Path,
                                                          args: tuple[str, ...]) -> None:
    result = run_correx(project, *args, input=allowed_write(project))
    assert (result.code, result.stderr) == (0, ""), result


def test_a_stop_signal_before_the_runner_began_blocks(project: Path) -> None:
    """Its options not parsed yet (cli/startup.py loading): the agent's blocking answer."""
    assert_blocked_by_sigterm(stopped_at_import(project, "gitcorrex.cli.startup", *HOOK))


def test_a_stop_signal_while_click_loads_blocks(project: Path) -> None:
    """An argument list the start-up parser leaves to click (`--`): click loads inside the
    agent's entry."""
    assert_blocked_by_sigterm(stopped_at_import(project, "click", *HOOK, "--"))


def test_a_stop_signal_while_the_runner_loads_the_adapter_blocks(project: Path) -> None:
    assert_blocked_by_sigterm(stopped_at_import(project, "gitcorrex.agents.claude_code",
                                                *HOOK))


def test_a_usage_error_is_the_blocking_answer(project: Path) -> None:
    result = run_correx(project, *HOOK, "--frobnicate", input=allowed_write(project))
    assert result.code == 2, result
    assert "so it is blocked (fail closed)" in result.stderr, result
    assert "No such option '--frobnicate'" in result.stderr, result


def test_help_is_not_a_failure(project: Path) -> None:
    result = run_correx(project, *HOOK, "-h")
    assert result.code == 0 and "--hook" in result.stdout, result


def test_options_before_hook_still_answer_in_the_agents_protocol(project: Path) -> None:
    """`assess --stage S --hook AGENT` (an order click accepts) is an agent's call too: a
    stop signal before the runner began is its blocking answer, not exit 143."""
    result = stopped_at_import(project, "gitcorrex.cli.startup", "assess", "--stage=implement",
                               "--hook", "claude-code")
    assert_blocked_by_sigterm(result)
