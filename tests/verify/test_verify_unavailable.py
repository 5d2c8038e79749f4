"""When the question cannot be answered as asked: exit 3 with a reason, never a pass.

Also the two neighbours of `unavailable`: a command killed by a signal (a plain fail) and
the setup command (its own event, and `setup_failed` when it fails).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path

from gitcorrex.model.verification import (
    Reason,
    Result,
    SetupFields,
    StopReason,
    VerificationFields,
)
from tests.conftest import CliResult, write
from tests.git.state_helpers import reference_key
from tests.verify.conftest import (
    counting,
    fields_of,
    is_anchored,
    notes_on,
    only_event,
    py,
    runs_counted,
    write_profile,
)

Correx = Callable[..., CliResult]


def verify_one(correx: Correx, root: Path, commands: dict[str, object], *args: str,
               code: int = 3) -> tuple[CliResult, VerificationFields]:
    """Profile `commands` run in order as expectation `e`; verify; the one event's fields."""
    write_profile(root, commands, {"e": list(commands)}, default="e")
    key = reference_key(root)
    result = correx(root, "verify", *args)
    assert result.code == code, result
    return result, fields_of(only_event(root, key))


def test_missing_prerequisite_names_the_path_and_runs_nothing(
        repo: Path, outside: Path, correx: Correx) -> None:
    counter = outside / "runs"
    commands = {"gen": counting(counter),
                "test": {"run": counting(counter), "requires": ["build/schema.json"]}}
    result, fields = verify_one(correx, repo, commands)
    assert (fields.result, fields.reason) == (Result.UNAVAILABLE, Reason.MISSING_PREREQUISITE)
    assert fields.missing_path == "build/schema.json"
    assert "missing prerequisite 'build/schema.json'" in result.stdout
    assert [c.stop_reason for c in fields.commands] == [StopReason.SKIPPED] * 2
    assert runs_counted(counter) == 0


def test_command_not_found_is_unavailable(repo: Path, correx: Correx) -> None:
    commands = {"lint": "no-such-tool-for-correx --check", "test": py("pass")}
    result, fields = verify_one(correx, repo, commands)
    assert (fields.result, fields.reason) == (Result.UNAVAILABLE, Reason.COMMAND_NOT_FOUND)
    assert [c.stop_reason for c in fields.commands] == [StopReason.NOT_FOUND, StopReason.SKIPPED]
    assert "command not found: 'no-such-tool-for-correx'" in result.stdout


def test_timeout_is_unavailable(repo: Path, correx: Correx) -> None:
    commands = {"slow": {"run": py("import time; print('started', flush=True); time.sleep(30)"),
                         "timeout": "1s"}}
    started = time.monotonic()
    result, fields = verify_one(correx, repo, commands)
    assert time.monotonic() - started < 15
    assert (fields.result, fields.reason) == (Result.UNAVAILABLE, Reason.TIMEOUT)
    slow = fields.commands[0]
    assert (slow.stop_reason, slow.signal) == (StopReason.TIMEOUT, signal.SIGTERM)
    assert slow.output is not None and slow.output.tail == "started\n"
    assert "command 'slow' timed out" in result.stdout


def test_timeout_holds_after_the_command_closes_its_output(repo: Path, correx: Correx) -> None:
    quiet_sleeper = py("import os, time; os.close(1); os.close(2); time.sleep(30)")
    started = time.monotonic()
    _, fields = verify_one(correx, repo, {"slow": {"run": quiet_sleeper, "timeout": "1s"}})
    assert time.monotonic() - started < 15
    assert fields.reason is Reason.TIMEOUT


def is_gone(pid: int) -> bool:
    """No such process, or only its zombie (PID 1 here may never reap orphans)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def test_timeout_kills_the_whole_process_group(repo: Path, outside: Path,
                                               correx: Correx) -> None:
    pid_file = outside / "grandchild.pid"
    spawner = py(
        "import subprocess, time\n"
        "p = subprocess.Popen(['sh', '-c', 'trap \"\" TERM; exec sleep 60'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(p.pid))\n"
        "time.sleep(60)")
    verify_one(correx, repo, {"spawner": {"run": spawner, "timeout": "1s"}})
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while not is_gone(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert is_gone(grandchild)


def test_workspace_changed_is_never_a_pass(repo: Path, correx: Correx) -> None:
    write(repo, ".gitignore", "ignored/\n")
    result, fields = verify_one(correx, repo, {"gen": py("open('generated.txt', 'w').write('x')")})
    assert (fields.result, fields.reason) == (Result.UNAVAILABLE, Reason.WORKSPACE_CHANGED)
    assert fields.commands[0].exit_code == 0
    assert "generated.txt" in result.stdout and ".gitignore" in result.stdout


def test_workspace_changed_records_and_anchors_the_state_after(repo: Path,
                                                               correx: Correx) -> None:
    write_profile(repo, {"gen": py("open('generated.txt', 'w').write('x')")}, {"e": ["gen"]},
                  default="e")
    before = reference_key(repo)
    assert correx(repo, "verify").code == 3
    fields = fields_of(only_event(repo, before))
    assert fields.state_after == reference_key(repo) != before
    assert is_anchored(repo, fields.state_after)


def test_ignored_outputs_do_not_change_the_workspace(repo: Path, correx: Correx) -> None:
    write(repo, ".gitignore", "ignored/\n")
    gen = py("import os; os.makedirs('ignored'); open('ignored/out.txt', 'w').write('x')")
    _, fields = verify_one(correx, repo, {"gen": gen}, code=0)
    assert fields.result is Result.PASS


def test_killed_by_a_signal_is_a_fail_with_the_signal(repo: Path, correx: Correx) -> None:
    suicide = py("import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    result, fields = verify_one(correx, repo, {"crash": suicide}, code=1)
    crash = fields.commands[0]
    assert (fields.result, fields.reason) == (Result.FAIL, None)
    assert (crash.stop_reason, crash.signal, crash.exit_code) == (
        StopReason.SIGNAL, signal.SIGKILL, None)
    assert "killed by signal 9" in result.stdout


SETUP_PROFILE = {"prep": py("print('preparing')"), "build": py("print('built')"),
                 "bad-prep": py("print('pip exploded'); raise SystemExit(1)")}


def test_setup_is_recorded_as_its_own_event(repo: Path, correx: Correx) -> None:
    write_profile(repo, SETUP_PROFILE, {"full": {"commands": ["build"], "setup": "prep"}},
                  default="full")
    result = correx(repo, "verify")
    assert result.code == 0, result
    assert result.stderr.startswith("[setup] prep … ")
    events = notes_on(repo, reference_key(repo))
    assert sorted(event.kind for event in events) == [SetupFields.KIND, VerificationFields.KIND]
    setup = next(event for event in events if event.kind == SetupFields.KIND)
    verification = next(event for event in events if event.kind == VerificationFields.KIND)
    extra = setup.model_extra or {}
    assert (extra.get("outcome"), extra.get("result")) == ("completed", None)
    assert [c.name for c in fields_of(verification).commands] == ["build"]


def test_failing_setup_makes_the_verification_unavailable(repo: Path, correx: Correx) -> None:
    write_profile(repo, SETUP_PROFILE, {"full": {"commands": ["build"], "setup": "bad-prep"}},
                  default="full")
    result = correx(repo, "verify", "--quiet")
    assert result.code == 3, result
    events = notes_on(repo, reference_key(repo))
    setup = next(event for event in events if event.kind == SetupFields.KIND)
    verification = fields_of(next(e for e in events if e.kind == VerificationFields.KIND))
    assert (setup.model_extra or {}).get("outcome") == "failed"
    assert (verification.result, verification.reason) == (Result.UNAVAILABLE,
                                                           Reason.SETUP_FAILED)
    assert [c.stop_reason for c in verification.commands] == [StopReason.SKIPPED]
    assert result.stderr == "pip exploded\n"
