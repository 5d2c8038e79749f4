"""Ctrl-C in a process's first milliseconds, before the stop-signal guard is up, is the same
interrupt as later: exit 130 and one line, never a traceback — and for an agent's hook call,
still the agent's blocking answer (exit 2: any other code lets the tool run).

Real processes. SIGINT is sent by the process to itself at the first import of a chosen
module of the start-up path, so it lands exactly there: while the boundary itself loads.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import CodeType

import pytest

from tests.agents.conftest import claude
from tests.cli.test_boundary import correx_env, default_stop_signals
from tests.conftest import CliResult

INTERRUPT_AT_IMPORT = """
import os, signal, sys

class InterruptAt:
    def find_spec(self, name, path=None, target=None):
        if name == sys.argv[1]:  # the first import of that module: Ctrl-C, to ourselves
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, InterruptAt())
from gitcorrex.cli import main
main(sys.argv[2:])
"""
# What `main` imports before the guard is up, in the order it imports them.
BEFORE_THE_GUARD = ["gitcorrex.cli.boundary", "gitcorrex.cli.stop_signals", "gitcorrex.errors",
                    "gitcorrex.model.conclusion"]


def interrupted_at_import(root: Path, module: str, *args: str, stdin: bytes = b"") -> CliResult:
    proc = subprocess.run([sys.executable, "-c", INTERRUPT_AT_IMPORT, module, *args], cwd=root,
                          env=correx_env(), input=stdin, capture_output=True, check=False,
                          timeout=120, preexec_fn=default_stop_signals)
    return CliResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


@pytest.mark.parametrize("module", BEFORE_THE_GUARD)
def test_ctrl_c_while_the_boundary_loads_is_exit_130_with_one_line(
        repo: Path, module: str) -> None:
    result = interrupted_at_import(repo, module, "state")
    assert (result.code, result.stderr) == (130, "git correx: interrupted (SIGINT)\n"), result
    assert result.stdout == ""


@pytest.mark.parametrize("module", BEFORE_THE_GUARD)
def test_ctrl_c_while_an_agent_hook_loads_is_the_blocking_answer(
        repo: Path, module: str) -> None:
    call = claude("PreToolUse", repo, "Write", file_path=str(repo / "new.py"), content="x\n")
    result = interrupted_at_import(repo, module, "assess", "--hook", "claude-code", stdin=call)
    assert result.code == 2, result
    assert "so it is blocked (fail closed)" in result.stderr, result
    assert "interrupted (SIGINT)" in result.stderr and "Traceback" not in result.stderr, result
    assert "(as a command this would exit 130)" in result.stderr, result


@pytest.mark.parametrize("module", ["gitcorrex.git.spawn", "gitcorrex.git.state_index_claim"])
def test_ctrl_c_while_state_begins_its_scan_is_exit_130_with_one_line(
        repo: Path, module: str) -> None:
    """`state` starts git before the boundary loads (git/state_start.py)."""
    result = interrupted_at_import(repo, module, "state")
    assert (result.code, result.stderr) == (130, "git correx: interrupted (SIGINT)\n"), result
    assert result.stdout == ""


def stopped_inside_the_import_system() -> CodeType:
    """Code named as the import system's own that sends this process SIGTERM, spends 50 ms
    there, then notes in `done` that it left."""
    return compile("import os, signal, time\n"
                   "os.kill(os.getpid(), signal.SIGTERM)\n"
                   "started = time.monotonic()\n"
                   "while time.monotonic() - started < 0.05:\n"
                   "    pass\n"
                   "done.append('left the import system')\n",
                   "<frozen importlib._bootstrap>", "exec")


def test_a_stop_signal_inside_the_import_system_is_raised_once_out_of_it() -> None:
    """Raised between two bytecodes of the import system, the stop could leak its global
    lock (and a module lock's weakref callback swallows it: the signal is lost). It is
    raised once the main thread has left that code, and still raised."""
    import signal
    import time

    import pytest

    from gitcorrex.cli.stop_signals import stop_signals_raise
    from gitcorrex.errors import Interrupted

    inside = stopped_inside_the_import_system()
    done: list[str] = []
    with pytest.raises(Interrupted) as stopped, stop_signals_raise():
        exec(inside, {"done": done})  # code named as the import system's own
        time.sleep(5)
    assert done == ["left the import system"]
    assert stopped.value.signum == signal.SIGTERM


def test_a_stop_signal_arriving_while_the_first_is_sent_again_waits_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Under load the signal sent again can arrive before the handler has returned to the
    import system; raised inside the handler it would land there all the same. Made certain
    here: the first sending again delivers a signal at once, inside the handler."""
    import os
    import signal
    import time

    from gitcorrex.cli import stop_signals
    from gitcorrex.errors import Interrupted

    send_later = stop_signals._send_again
    sent: list[int] = []

    def send_now_then_later(signum: int) -> None:
        sent.append(signum)
        if len(sent) == 1:
            os.kill(os.getpid(), signum)  # handled on the next bytecode: inside the handler
        send_later(signum)

    monkeypatch.setattr(stop_signals, "_send_again", send_now_then_later)
    inside = stopped_inside_the_import_system()
    done: list[str] = []
    with pytest.raises(Interrupted), stop_signals.stop_signals_raise():
        exec(inside, {"done": done})
        time.sleep(5)
    assert done == ["left the import system"]
    assert len(sent) >= 2  # the nested signal was sent again, not raised
    assert signal.SIGTERM in sent


def test_a_stop_deferred_as_the_body_ends_is_still_the_interruption() -> None:
    """A stop that lands in the import system just before the guarded body returns is on
    its way again when the guard comes down: it is raised there, not lost (nor delivered
    to the handler the guard restores)."""
    import signal

    from gitcorrex.cli.stop_signals import stop_signals_raise
    from gitcorrex.errors import Interrupted

    ends_at_once = compile("import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n",
                           "<frozen importlib._bootstrap>", "exec")
    with pytest.raises(Interrupted) as stopped, stop_signals_raise():
        exec(ends_at_once, {})
    assert stopped.value.signum == signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_stops_sent_again_after_one_was_raised_never_reach_the_restored_handler() -> None:
    """Several stops deferred at once: the first raises, the rest are dropped. Sent with
    `kill`, one arriving after the guard restored the default handler would end this
    process (a test worker, a program embedding git correx); this test would then crash."""
    import signal
    import time

    from gitcorrex.cli.stop_signals import GUARD, stop_signals_raise
    from gitcorrex.errors import Interrupted

    three = compile("import os, signal\n"
                    "for _ in range(3):\n"
                    "    os.kill(os.getpid(), signal.SIGTERM)\n",
                    "<frozen importlib._bootstrap>", "exec")
    with pytest.raises(Interrupted), stop_signals_raise():
        exec(three, {})
        time.sleep(5)
    deadline = time.monotonic() + 5
    while GUARD.resending and time.monotonic() < deadline:  # past every resend, even on a
        time.sleep(0.01)                                     # machine that starves threads
    assert GUARD.resending == []
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
