"""The one error boundary, as real processes: stop signals end the command's process group
and exit 128+N with nothing left behind; a machine that cannot write (full disk, read-only
object store) is exit 3 with one line and the ledger tip unchanged.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, git, run_correx, write
from tests.console_script import SCRIPT
from tests.verify.conftest import has_ledger, py, write_profile

NOTES_REF = "refs/notes/correx"


def late_writer(marker: Path) -> str:
    """A profile command that writes `marker` 2 s after it starts."""
    return py(f"import time; time.sleep(2); open({str(marker)!r}, 'w').write('late')")


def correx_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def default_stop_signals() -> None:
    """The child's stop signals as a terminal's process gets them: a suite started under
    `nohup`, or as a background job of a shell (which ignores SIGINT and SIGQUIT for it),
    hands its children those signals ignored, and an ignored one rightly stays ignored."""
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)


def leftovers(root: Path) -> list[str]:
    return sorted(name for name in os.listdir(root / ".git") if name.startswith("correx-"))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT,
                                    signal.SIGINT])
def test_stop_signal_ends_the_command_and_exits_128_plus_n(
        make_repo: Callable[..., Path], tmp_path: Path, signum: int) -> None:
    root = make_repo()
    marker = tmp_path / "written"
    write_profile(root, {"slow": late_writer(marker)}, {"e": ["slow"]}, default="e")
    proc = subprocess.Popen([sys.executable, "-m", "gitcorrex", "verify"], cwd=root,
                            env=correx_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=default_stop_signals)
    time.sleep(1.0)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signum, err
    assert f"interrupted ({signal.Signals(signum).name})" in err.decode()
    time.sleep(1.6)  # past the moment the command would have written
    assert not marker.exists()
    assert leftovers(root) == [] and not has_ledger(root)


def test_an_ignored_hangup_stays_ignored(make_repo: Callable[..., Path], tmp_path: Path) -> None:
    """`nohup git correx verify`: SIGHUP was ignored when we started, so it is not a stop."""
    root = make_repo()
    marker = tmp_path / "written"
    write_profile(root, {"slow": late_writer(marker)}, {"e": ["slow"]}, default="e")
    proc = subprocess.Popen(["nohup", sys.executable, "-m", "gitcorrex", "verify"], cwd=root,
                            env=correx_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.0)
    proc.send_signal(signal.SIGHUP)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert marker.exists()


def test_timeout_1_verify_stops_the_profile_command(
        make_repo: Callable[..., Path], tmp_path: Path) -> None:
    """The issue's reproduction: `timeout 1 git correx verify` (SIGTERM after 1 s)."""
    root = make_repo()
    marker = tmp_path / "written"
    write_profile(root, {"slow": late_writer(marker)}, {"e": ["slow"]}, default="e")
    proc = subprocess.run(["timeout", "--preserve-status", "1", sys.executable, "-m",
                           "gitcorrex", "verify"], cwd=root, env=correx_env(),
                          capture_output=True, check=False, timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM, proc.stderr
    time.sleep(1.6)
    assert not marker.exists()
    assert leftovers(root) == [] and not has_ledger(root)


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB tmpfs at a fresh directory (root in a mount-capable environment only)."""
    mount_point = tmp_path / "small"
    mount_point.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (or a mount namespace)")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount_point)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


def fill(fs: Path, leave_kib: int) -> None:
    """Fill `fs` until about `leave_kib` KiB are free."""
    info = os.statvfs(fs)
    free = info.f_bavail * info.f_frsize
    with open(fs / "filler", "ab") as out:
        out.write(b"\0" * max(free - leave_kib * 1024, 0))


def full_disk_repo(fs: Path) -> Path:
    root = fs / "repo"
    root.mkdir()
    git(root, "init", "-q")
    write(root, "README.md", "hello\n")
    big = py("import os, sys; sys.stdout.write(os.urandom(1500000).hex())")
    write_profile(root, {"ok": "python3 -c pass", "big": big},
                  {"e": ["ok"], "big": ["big"]}, default="e", commit=False)
    write(root, ".correx.toml",
          (root / ".correx.toml").read_text() + '[stages.impl]\nwrites = ["/src/**"]\n')
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    assert run_correx(root, "verify").code == 0  # a ledger exists before the disk fills
    return root


def assert_unavailable(result: object, code: int, stderr: str) -> None:
    assert code == 3, result
    assert "no space left on device" in stderr, result
    assert "Traceback" not in stderr and "fail" not in stderr.split("error:")[-1], result


@pytest.mark.parametrize("command", [["verify"], ["verify", "--expect", "big"], ["state"], ["show"],
                                     ["assess", "write", "docs/x.md", "--stage", "impl"]])
def test_full_disk_is_unavailable_and_leaves_the_ledger_alone(
        small_fs: Path, command: list[str]) -> None:
    root = full_disk_repo(small_fs)
    tip = git(root, "rev-parse", NOTES_REF).strip()
    write(root, "src/app.py", "VALUE = 2\n")
    fill(small_fs, leave_kib=0 if command[-1] != "big" else 200)
    result = run_correx(root, *command)
    assert_unavailable(result, result.code, result.stderr)
    assert git(root, "rev-parse", NOTES_REF).strip() == tip
    assert leftovers(root) == []


@pytest.fixture
def read_only_objects(repo: Path) -> Iterator[Path]:
    objects = repo / ".git" / "objects"
    if os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root")
    steps = (["mount", "--bind", str(objects), str(objects)],
             ["mount", "-o", "remount,ro,bind", str(objects)])
    for step in steps:
        if subprocess.run(step, capture_output=True, check=False).returncode != 0:
            subprocess.run(["umount", str(objects)], capture_output=True, check=False)
            pytest.skip("bind mounts are not allowed here")
    try:
        yield repo
    finally:
        subprocess.run(["umount", str(objects)], check=False)


def test_read_only_object_store_gets_its_own_hint(read_only_objects: Path) -> None:
    write(read_only_objects, "new.txt", "new\n")
    result = run_correx(read_only_objects, "state")
    assert result.code == 3, result
    assert "read-only file system" in result.stderr and ".git/objects" in result.stderr
    assert "embedded" not in result.stderr and "Traceback" not in result.stderr


def git_children(pid: int) -> list[int]:
    """The git processes `pid` started, from any of its threads (read from /proc)."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listed:
                children = listed.read().split()
        except OSError:
            continue
        for child in children:
            try:
                with open(f"/proc/{child}/comm") as comm:
                    if comm.read().strip() == "git":
                        found.append(int(child))
            except OSError:
                continue
    return found


def awaited(pid: int) -> bool:
    """Whether `pid` is a git whose answer is still awaited: not a zombie, not on its way
    out (its memory, and with it its command line, already released), not the `cat-file
    --batch` kept open for questions (killed between two, it loses nothing)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            argv = cmdline.read().split(b"\0")
    except OSError:
        return False
    return argv != [b""] and b"--batch" not in argv


def test_ctrl_c_that_reaches_git_first_is_the_interruption(
        make_repo: Callable[..., Path], tmp_path: Path) -> None:
    """A terminal's Ctrl-C goes to the whole process group: git's rescan after the command
    can die of it before our own handler runs. That is the interruption (exit 130, nothing
    recorded), not "cannot compute the state key" (exit 3). Here the signal reaches git
    only, the first git started after the command ended: the race's loser, made certain."""
    if not os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children"):
        pytest.skip("this kernel does not list a task's children in /proc")
    root = make_repo(files={f"src/m{i}.py": f"x = {i}\n" for i in range(400)})
    ended = tmp_path / "ended"
    write_profile(root, {"t": py(f"open({str(ended)!r}, 'w').close()")}, {"e": ["t"]},
                  default="e")
    kills = 0
    for _ in range(10):  # until one run's git is reached in time (a loaded machine can miss)
        ended.unlink(missing_ok=True)
        proc = subprocess.Popen([sys.executable, "-m", "gitcorrex", "verify"], cwd=root,
                                env=correx_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, preexec_fn=default_stop_signals)
        killed, deadline = None, time.monotonic() + 60
        while killed is None and proc.poll() is None:
            if time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"verify did not end: {proc.communicate()}")
            if ended.exists():
                for child in git_children(proc.pid):
                    if not awaited(child):
                        continue
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(child, signal.SIGINT)
                        killed = child
                        break
        _, err = proc.communicate(timeout=60)
        if killed is None:
            assert proc.returncode == 0, err
            continue
        kills += 1
        said = err.decode()
        assert proc.returncode == 130, said
        assert said.endswith("\ngit correx: interrupted (SIGINT)\n"), said
        assert "Traceback" not in said and "state key" not in said, said
        assert leftovers(root) == [] and not has_ledger(root)
        if kills == 3:
            break
    assert kills, "no run's git was reached after its command ended"


def test_a_full_disk_while_the_private_index_is_made_names_where(small_fs: Path) -> None:
    """The private index made from the user's entries (`state_index_seed.py`; a first key,
    the kept index removed) on a full disk: exit 3 naming the directory it lives in and
    the fix, not git's command line."""
    root = full_disk_repo(small_fs)
    shutil.rmtree(root / ".git" / "correx")
    fill(small_fs, leave_kib=0)
    result = run_correx(root, "state")
    assert_unavailable(result, result.code, result.stderr)
    assert str(root / ".git") in result.stderr, result
    assert "run the git command above by hand" not in result.stderr, result


@pytest.mark.parametrize("command", [["state"], ["verify"], ["log"],
                                     ["assess", "--hook", "claude-code"]],
                         ids=["state", "verify", "log", "agent hook"])
def test_a_removed_current_directory_is_one_line_and_exit_3(
        make_repo: Callable[..., Path], tmp_path: Path, command: list[str]) -> None:
    """A shell still standing in a directory that was removed (`rm -rf` of a work tree,
    an agent's scratch clone): exit 3 and one line naming it, never a traceback; an agent
    hook call is blocked (fail closed), as for any failure."""
    make_repo()
    gone = tmp_path / "gone"
    gone.mkdir()
    console_script()  # `python -m` itself cannot start there (its path needs it)
    proc = subprocess.run([str(SCRIPT), *command], cwd=gone,
                          env=dict(os.environ), input=b"{}", capture_output=True, timeout=60,
                          check=False, preexec_fn=lambda: os.rmdir(gone))
    err = proc.stderr.decode()
    assert "Traceback" not in err and "cannot read the current directory" in err, err
    assert proc.returncode == (2 if command[0] == "assess" else 3), err


def _close(*fds: int) -> Callable[[], None]:
    def close() -> None:
        for fd in fds:
            os.close(fd)
    return close


@pytest.mark.parametrize(("command", "closed", "code"), [
    (["state"], (1,), 0),
    (["state"], (2,), 0),
    (["verify"], (0, 1, 2), 0),
    (["verify", "--expect", "nothing-of-that-name"], (2,), 2),
], ids=["state >&-", "state 2>&-", "verify <&- >&- 2>&-", "usage error 2>&-"])
def test_a_closed_standard_stream_is_dev_null(
        make_repo: Callable[..., Path], command: list[str], closed: tuple[int, ...],
        code: int) -> None:
    """A descriptor the caller closed (`>&-`) reads and writes as /dev/null, as git's do:
    the command ends with its own exit code, never a traceback over a missing stream, and
    a verify still records its observation."""
    root = make_repo()
    passing_profile(root)
    console_script()
    proc = subprocess.run([str(SCRIPT), *command], cwd=root, env=dict(os.environ),
                          timeout=120, check=False, preexec_fn=_close(*closed),
                          stdout=subprocess.PIPE if 1 not in closed else None,
                          stderr=subprocess.PIPE if 2 not in closed else None)
    assert proc.returncode == code, proc
    if command == ["verify"]:
        assert has_ledger(root)
        assert run_correx(root, "log", "-n", "1").code == 0


def test_the_open_file_limit_is_one_line_and_exit_3(make_repo: Callable[..., Path]) -> None:
    """`ulimit -n` too low for a verify's git processes: an environmental fault (exit 3, one
    line naming the limit), never a traceback, and nothing recorded."""
    import resource

    root = make_repo()
    passing_profile(root)
    console_script()

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (8, 8))  # far below what a verify opens

    proc = subprocess.run([str(SCRIPT), "verify"], cwd=root, env=dict(os.environ),
                          capture_output=True, text=True, timeout=120, check=False,
                          preexec_fn=few_files)
    assert proc.returncode == 3, proc
    assert "Traceback" not in proc.stderr and "too many open files" in proc.stderr, proc.stderr
    assert "ulimit -n" in proc.stderr
    assert not has_ledger(root)


def test_what_the_output_encoding_lacks_is_escaped(make_repo: Callable[..., Path]) -> None:
    """A commit subject with a `✓` shown by `log` under an ASCII output encoding (as a
    latin-1 locale lacks it too): escaped, exit 0, never a traceback after the work."""
    root = make_repo()
    passing_profile(root)
    write(root, "notes.txt", "x\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "done \u2713")
    assert run_correx(root, "verify").code == 0
    console_script()
    proc = subprocess.run([str(SCRIPT), "log", "-n", "1"], cwd=root,
                          env={**os.environ, "PYTHONIOENCODING": "ascii"},
                          capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"done \\u2713" in proc.stdout, proc.stdout


@pytest.mark.parametrize("command", [["state"], ["verify"]])
def test_a_file_where_the_state_directory_belongs_is_one_line_and_exit_3(
        make_repo: Callable[..., Path], command: list[str]) -> None:
    """`.git/correx` replaced by a file (an agent's junk, a botched copy): exit 3 and one
    line naming the path and the fix, never a traceback; nothing recorded."""
    root = make_repo()
    passing_profile(root)
    (root / ".git" / "correx").write_text("not a directory\n")
    result = run_correx(root, *command)
    assert result.code == 3, result
    assert "not a directory" in result.stderr and "move it aside" in result.stderr, result
    assert "Traceback" not in result.stderr
    assert not has_ledger(root)


def console_script() -> Path:
    """The installed `git-correx` (a shell's way in: `python -m` needs what some of these
    tests take away); skip where nothing is installed."""
    if not SCRIPT.exists():
        pytest.skip(f"no console script at {SCRIPT}")
    return SCRIPT


def passing_profile(root: Path) -> None:
    """A committed profile whose default expectation passes."""
    write_profile(root, {"ok": py("pass")}, {"default": ["ok"]}, default="default")
