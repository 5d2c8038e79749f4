"""`git correx verify` through the resident process: the same run, the same record, the
same exit, as a process of its own — and only for a caller whose commands would run alike.

Real processes throughout: the resident process started by an agent hook call (the command
`hooks install --agent claude-code` writes), `python -m gitcorrex verify` as the caller,
a profile whose command writes down who ran it (its parent's parent: the resident process
when the resident process's child ran the verify) and what it was given.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gitcorrex.cli.resident_client import LOST_VERIFY
from tests.cli.test_resident import (
    _no_new_privs,
    environment,
    install_claude_hook,
    resident_pid,
    running,
    started_resident,
    stop_resident,
    wait_for_resident,
)
from tests.conftest import run_correx
from tests.git.watch_helpers import Watchman

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the resident process uses Linux's abstract sockets")

PROFILE = """version = 1
[stages.implement]
writes = ["/src/**"]
[commands]
probe = "sh probe.sh"
fails = "sh fails.sh"
waits = "sh waits.sh"
[expectations]
probe = ["probe"]
fails = ["fails"]
waits = ["waits"]
"""
# The command writes, outside the work tree (so the workspace does not move): the process
# that ran the verify (its parent), that one's parent, where it ran, a variable only the
# caller set, the umask and the signals it ignores.
PROBE = """grand=$(cut -d' ' -f4 /proc/$PPID/stat)
ignored=$(grep SigIgn /proc/$$/status | cut -f2)
printf '%s %s %s %s %s %s\\n' "$PPID" "$grand" "$(pwd)" "$CALLER_MARK" "$(umask)" "$ignored" \\
    >> "$PROBE_OUT"
echo probing
"""
FAILS = "echo this is why it failed\nexit 3\n"
WAITS = """grand=$(cut -d' ' -f4 /proc/$PPID/stat)
echo "$$ $PPID $grand" > "$PROBE_OUT.waiting"
exec sleep 60
"""
VOLATILE = ("id", "at", "actor")  # the time, and the runtime id (a pid) in the actor


@pytest.fixture
def project(make_repo: Callable[..., Path], tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A project with the Claude Code hook installed locally (its calls start the resident
    process) and a profile whose commands say who ran them."""
    root = make_repo(files={"README.md": "hello\n", "src/app.py": "VALUE = 1\n",
                            ".correx.toml": PROFILE, "probe.sh": PROBE, "fails.sh": FAILS,
                            "waits.sh": WAITS})
    yield root, install_claude_hook(root)
    stop_resident(environment(tmp_path))


def caller_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return environment(tmp_path, PROBE_OUT=str(tmp_path / "probe.out"),
                       CALLER_MARK="from-the-caller", **extra)


def verify(root: Path, env: dict[str, str], *args: str,
           preexec: Callable[[], None] | None = None) -> subprocess.CompletedProcess[str]:
    """`git correx verify` as a process of its own (`main` reads `sys.argv`, as the
    console script's does)."""
    return subprocess.run([sys.executable, "-m", "gitcorrex", "verify", *args], cwd=root,
                          env=env, capture_output=True, text=True, timeout=120, check=False,
                          preexec_fn=preexec)


def probes(tmp_path: Path) -> list[list[str]]:
    return [line.split(" ") for line in (tmp_path / "probe.out").read_text().splitlines()]


def observations(root: Path) -> list[dict[str, Any]]:
    proc = subprocess.run([sys.executable, "-m", "gitcorrex", "replay", "--json"], cwd=root,
                          env={**os.environ, "CORREX_RESIDENT": "off"}, capture_output=True,
                          text=True, check=True)
    return [event for event in json.loads(proc.stdout)["events"]
            if event["kind"] == "workspace_verification_observed"]


def comparable(event: dict[str, Any]) -> dict[str, Any]:
    """An observation without what differs between two runs of the same commands."""
    kept = {name: value for name, value in event.items() if name not in VOLATILE}
    kept["commands"] = [{name: value for name, value in command.items()
                         if name != "duration_ms"} for command in event["commands"]]
    return kept


def test_a_verify_runs_in_the_resident_process_as_in_a_process_of_its_own(
        project: tuple[Path, str], tmp_path: Path) -> None:
    """Handed over (the command's grandparent is the resident process), the verify runs
    the command in the work tree with the caller's environment and umask, prints and exits
    as a process of its own, and records the same observation."""
    root, command = project
    env = caller_env(tmp_path)
    server = started_resident(root, command, env)
    handed = verify(root, env, "--expect", "probe")
    own = verify(root, {**env, "CORREX_RESIDENT": "off"}, "--expect", "probe")
    assert (handed.returncode, handed.stdout, handed.stderr) \
        == (own.returncode, own.stdout, own.stderr) == (0, own.stdout, own.stderr)
    assert own.stdout.startswith("pass: expectation 'probe'"), own.stdout
    served, alone = probes(tmp_path)
    assert served[1] == str(server), served  # the verify ran in the resident's child
    assert alone[1] != str(server), alone
    umask = f"{os.umask(0o22):04o}"
    os.umask(int(umask, 8))
    assert served[2:5] == alone[2:5] == [str(root), "from-the-caller", umask]
    assert served[5] == alone[5]  # the signals the command ignores
    first, second = observations(root)
    assert comparable(first) == comparable(second)
    assert first["result"] == "pass"


def test_a_verify_starts_no_resident_process(project: tuple[Path, str],
                                             tmp_path: Path) -> None:
    """A verify run now and then (a person, CI, a git hook) leaves no process behind; it
    takes a resident process only when an agent hook call started one."""
    root, _ = project
    env = caller_env(tmp_path)
    assert verify(root, env, "--expect", "probe").returncode == 0
    time.sleep(0.5)
    assert resident_pid(env) is None
    (caller,) = probes(tmp_path)
    assert caller[0] != "" and running(int(caller[0])) is False  # its own process, ended


def test_a_verify_where_the_watcher_is_on_starts_a_resident_process(
        project: tuple[Path, str], tmp_path: Path, watchman: Watchman) -> None:
    """Whoever ran `watch start` keeps a process watching already: there the first verify
    runs in its own process and starts a resident process, which takes the next one."""
    root, _ = project
    env = caller_env(tmp_path)
    assert run_correx(root, "watch", "start").code == 0
    try:
        assert verify(root, env, "--expect", "probe").returncode == 0
        server = wait_for_resident(env)
        assert verify(root, env, "--expect", "probe").returncode == 0
    finally:
        run_correx(root, "watch", "stop")
    first, second = probes(tmp_path)
    assert first[1] != str(server) and second[1] == str(server)


def test_a_failing_verify_through_the_resident_process_exits_1_with_its_output(
        project: tuple[Path, str], tmp_path: Path) -> None:
    root, command = project
    env = caller_env(tmp_path)
    started_resident(root, command, env)
    handed = verify(root, env, "--expect", "fails", "--quiet")
    own = verify(root, {**env, "CORREX_RESIDENT": "off"}, "--expect", "fails", "--quiet")
    assert handed.returncode == own.returncode == 1
    assert "this is why it failed" in handed.stderr
    assert (handed.stdout, handed.stderr) == (own.stdout, own.stderr)
    usage = verify(root, env, "--expect", "nothing-of-that-name")
    assert usage.returncode == 2 and "nothing-of-that-name" in usage.stderr


def start_waiting(root: Path, env: dict[str, str], tmp_path: Path) -> tuple[
        subprocess.Popen[str], list[int]]:
    """A verify whose command waits; (the caller, [command, its parent, grandparent])."""
    caller = subprocess.Popen([sys.executable, "-m", "gitcorrex", "verify", "--expect",
                               "waits", "--quiet"], cwd=root, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    waiting = tmp_path / "probe.out.waiting"
    deadline = time.monotonic() + 60
    while not waiting.exists() or not waiting.read_text().endswith("\n"):
        assert caller.poll() is None, caller.communicate()
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.02)
    return caller, [int(word) for word in waiting.read_text().split()]


def test_ctrl_c_to_a_verify_in_the_resident_process_ends_its_command(
        project: tuple[Path, str], tmp_path: Path) -> None:
    """The stop signal the caller gets reaches the verify in the resident process's child,
    which ends the command's process group, records nothing and exits 130."""
    root, command = project
    env = caller_env(tmp_path)
    server = started_resident(root, command, env)
    caller, (sleeper, child, grand) = start_waiting(root, env, tmp_path)
    assert grand == server
    caller.send_signal(signal.SIGINT)
    _, err = caller.communicate(timeout=30)
    assert caller.returncode == 130, err
    deadline = time.monotonic() + 10
    while running(sleeper) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not running(sleeper) and not running(child)
    assert observations(root) == []


def test_a_verify_whose_resident_child_is_killed_is_an_environmental_fault(
        project: tuple[Path, str], tmp_path: Path) -> None:
    """The process running the verify killed (the OOM killer): whether it recorded is
    unknown, so exit 3 and one line saying so, never a pass or a usage error."""
    root, command = project
    env = caller_env(tmp_path)
    started_resident(root, command, env)
    caller, (sleeper, child, _) = start_waiting(root, env, tmp_path)
    os.kill(child, signal.SIGKILL)
    out, err = caller.communicate(timeout=30)
    os.kill(sleeper, signal.SIGKILL)  # its own session: nothing else ends it
    assert (caller.returncode, out, err) == (3, "", LOST_VERIFY)


def _nice() -> None:
    os.nice(5)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a background job of a shell script


def _default_interrupts_and_quits() -> None:
    """Neither ignored, whatever this suite inherited (a background job of a shell, or
    `nohup`, hands its children SIGINT and SIGQUIT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def _ignore_interrupts_and_quits() -> None:
    _ignore_interrupts()
    signal.signal(signal.SIGQUIT, signal.SIG_IGN)  # `nohup`-like wrappers ignore more


@pytest.mark.parametrize("confine", [_no_new_privs, _nice], ids=["no_new_privs", "nice"])
def test_a_caller_whose_commands_would_run_otherwise_verifies_in_its_own_process(
        project: tuple[Path, str], tmp_path: Path, confine: Callable[[], None]) -> None:
    """Under `no_new_privs` (a Landlock or seccomp sandbox) or at another nice value, the
    verify runs in the caller's own process, so its commands run as the caller would run
    them, with the same result."""
    root, command = project
    env = caller_env(tmp_path)
    server = started_resident(root, command, env)
    confined = verify(root, env, "--expect", "probe", preexec=confine)
    assert confined.returncode == 0, confined.stderr
    (caller,) = probes(tmp_path)
    assert caller[1] != str(server)
    assert resident_pid(env) == server


def test_a_resident_process_under_no_new_privs_runs_no_verify(
        project: tuple[Path, str], tmp_path: Path) -> None:
    """Two processes under `no_new_privs` may hold different Landlock domains that nothing
    shows: a resident process started from such a shell still takes that shell's hook
    calls, never a verify, which runs in the caller's own process."""
    root, command = project
    env = caller_env(tmp_path)
    subprocess.run(["sh", "-c", command], cwd=root, env=env, input=b"{}",
                   capture_output=True, timeout=60, check=False, preexec_fn=_no_new_privs)
    server = wait_for_resident(env)
    confined = verify(root, env, "--expect", "probe", preexec=_no_new_privs)
    assert confined.returncode == 0, confined.stderr
    (caller,) = probes(tmp_path)
    assert caller[1] != str(server)


@pytest.mark.parametrize(("resident_ignores", "caller_ignores"),
                         [(False, True), (True, False)],
                         ids=["the caller ignores SIGINT", "the resident process does"])
def test_the_commands_ignore_the_signals_their_caller_ignores(
        project: tuple[Path, str], tmp_path: Path, resident_ignores: bool,
        caller_ignores: bool) -> None:
    """A command inherits the signals ignored where it starts: through the resident process
    it ignores what the caller ignores (a background job ignores SIGINT), never what the
    process that started the resident process did, as in the caller's own process."""
    root, command = project
    env = caller_env(tmp_path)
    started_by = _ignore_interrupts_and_quits if resident_ignores \
        else _default_interrupts_and_quits
    subprocess.run(["sh", "-c", command], cwd=root, env=env, input=b"{}",
                   capture_output=True, timeout=60, check=False, preexec_fn=started_by)
    server = wait_for_resident(env)
    caller = _ignore_interrupts if caller_ignores else _default_interrupts_and_quits
    handed = verify(root, env, "--expect", "probe", preexec=caller)
    own = verify(root, {**env, "CORREX_RESIDENT": "off"}, "--expect", "probe",
                 preexec=caller)
    assert handed.returncode == own.returncode == 0, (handed.stderr, own.stderr)
    served, alone = probes(tmp_path)
    assert served[1] == str(server) and alone[1] != str(server)
    interrupt = 1 << (signal.SIGINT - 1)
    assert bool(int(served[5], 16) & interrupt) is caller_ignores, served
    assert served[5] == alone[5]
