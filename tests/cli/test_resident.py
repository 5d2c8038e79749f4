"""The agent hook through the resident process: the same answers as a process of its own.

Real processes throughout: the command `hooks install --agent claude-code` writes, run by
`sh` as Claude Code runs it, Claude Code's payloads on stdin, the resident process started
by the first call, a `git` on PATH that logs which process ran it (so a test sees that the
resident process's child, not the launcher, answered, and with the caller's PATH).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gitcorrex.agents.install import hook_command
from gitcorrex.cli.resident_client import LOST
from gitcorrex.resident_address import package_dir, resident_name, start_settings
from tests.agents.conftest import claude
from tests.conftest import GIT_LOG, git, logging_git, run_correx, write

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the resident process uses Linux's abstract sockets")

PROFILE = """version = 1
[stages.implement]
writes = ["/src/**"]
"""


@pytest.fixture
def installed(make_repo: Callable[..., Path], tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A project with the Claude Code hook installed locally, and its command."""
    root = make_repo(files={"README.md": "hello\n", "src/app.py": "VALUE = 1\n",
                            ".correx.toml": PROFILE})
    yield root, install_claude_hook(root)
    stop_resident(environment(tmp_path))


def install_claude_hook(root: Path) -> str:
    """`hooks install --agent claude-code` (stage `implement`); the command it wrote."""
    git(root, "config", "correx.stage", "implement")
    assert run_correx(root, "hooks", "install", "--agent", "claude-code").code == 0
    settings = json.loads((root / ".claude/settings.local.json").read_text())
    return str(settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"])


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The caller's environment with the resident process on (short idle time)."""
    env = {name: value for name, value in os.environ.items() if name != "CORREX_RESIDENT"}
    env["PATH"] = f"{logging_git(tmp_path)}{os.pathsep}{env['PATH']}"
    env["CORREX_RESIDENT_IDLE_SECONDS"] = "20"
    # a start-up setting of its own (Python ignores it): each test its own resident process
    env["PYTHON_CORREX_TEST"] = str(tmp_path)
    env.update(extra)
    return env


def resident_pid(env: dict[str, str]) -> int | None:
    """The pid of the resident process serving `env`, when one listens."""
    name = resident_name(sys.executable, package_dir(), start_settings(env))
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(name)
        except OSError:
            return None
        cred = probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
    return int.from_bytes(cred[:4], sys.byteorder)


def wait_for_resident(env: dict[str, str], timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pid = resident_pid(env)
        if pid is not None:
            return pid
        time.sleep(0.05)
    raise AssertionError("no resident process started")


def stop_resident(env: dict[str, str]) -> None:
    pid = resident_pid(env)
    if pid is not None:
        os.kill(pid, signal.SIGTERM)


def run_hook(root: Path, command: str, payload: bytes, env: dict[str, str],
             cwd: Path | None = None) -> tuple[int, str, str]:
    proc = subprocess.run(["sh", "-c", command], cwd=cwd or root, env=env, input=payload,
                          capture_output=True, timeout=60, check=False)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def hook_argv(command: str) -> list[str]:
    """The installed command without its `|| exit 2`: the hook process itself, so a signal
    sent to it reaches it (not a shell around it)."""
    return shlex.split(command.split(" || ")[0])


def start_hook(root: Path, argv: list[str], env: dict[str, str], payload: bytes,
               **streams: int) -> subprocess.Popen[bytes]:
    """A hook process reading `payload` from a file, as it reads a pipe's whole content."""
    body = root.parent / f"payload-{time.monotonic_ns()}.json"
    body.write_bytes(payload)
    with body.open("rb") as stdin:
        return subprocess.Popen(argv, cwd=root, env=env, stdin=stdin,
                                stdout=streams.get("stdout", subprocess.PIPE),
                                stderr=streams.get("stderr", subprocess.PIPE))


def git_parents(tmp_path: Path, generation: int = 0) -> set[int]:
    """The processes that ran git (generation 0) or their parents (1), from the log."""
    log = tmp_path / GIT_LOG
    return {int(line.split(" ")[generation]) for line in log.read_text().splitlines()} \
        if log.exists() else set()


def running(pid: int) -> bool:
    """Alive, not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def started_resident(root: Path, command: str, env: dict[str, str]) -> int:
    """The first call runs in its own process and starts the resident process."""
    run_hook(root, command, claude("PreToolUse", root, "Write", file_path="src/a.py",
                                   content="x\n"), env)
    return wait_for_resident(env)


def payloads(root: Path) -> dict[str, bytes]:
    return {
        "allowed write": claude("PreToolUse", root, "Write", file_path="src/new.py",
                                content="x = 1\n"),
        "write outside the manifest": claude("PreToolUse", root, "Write",
                                             file_path="docs/x.md", content="x\n"),
        "operator command in a shell call": claude("PreToolUse", root, "Bash",
                                                   command="git correx plan authorize p.toml"),
        "ordinary shell call": claude("PreToolUse", root, "Bash", command="ls"),
        "after a shell call": claude("PostToolUse", root, "Bash", command="ls"),
        "stop": claude("Stop", root),
        "not JSON": b'{"bad',
    }


def test_the_resident_process_answers_every_call_as_a_process_of_its_own(
        installed: tuple[Path, str], tmp_path: Path) -> None:
    root, command = installed
    env = environment(tmp_path)
    server = started_resident(root, command, env)
    served = 0
    for name, payload in payloads(root).items():
        (tmp_path / GIT_LOG).unlink(missing_ok=True)
        through_resident = run_hook(root, command, payload, env)
        callers = git_parents(tmp_path, generation=1)
        own = run_hook(root, command, payload, {**env, "CORREX_RESIDENT": "off"})
        assert through_resident == own, name
        # the calls that read the repository: git run by the resident process's child
        assert callers <= {server}, name
        served += bool(callers)
    assert served >= 4
    assert resident_pid(env) == server  # one resident process served them all


def test_the_call_runs_in_the_callers_directory_with_its_environment(
        installed: tuple[Path, str], tmp_path: Path) -> None:
    root, command = installed
    env = environment(tmp_path)
    started_resident(root, command, env)
    (tmp_path / GIT_LOG).unlink(missing_ok=True)
    without_cwd = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse",
                              "tool_name": "Write", "transcript_path": "/tmp/t.jsonl",
                              "tool_input": {"file_path": "new.py", "content": "x\n"}})
    answer = run_hook(root, command, without_cwd.encode(), env, cwd=root / "src")
    assert answer[0] == 0 and answer[1] == "", answer  # src/new.py: inside the manifest
    assert git_parents(tmp_path), "git was not run through the caller's PATH"
    unknown = run_hook(root, command, payloads(root)["allowed write"],
                       {**env, "CORREX_SESSION": "no-such-session"})
    assert unknown[0] == 2 and "no-such-session" in unknown[2], unknown


def test_many_calls_at_once_each_get_their_own_answer(installed: tuple[Path, str],
                                                       tmp_path: Path) -> None:
    root, command = installed
    env = environment(tmp_path)
    started_resident(root, command, env)
    calls = ["src/ok.py", "docs/no.md"] * 6
    procs = []
    for number, path in enumerate(calls):
        body = tmp_path / f"payload-{number}.json"
        body.write_bytes(claude("PreToolUse", root, "Write", file_path=path, content="x\n"))
        with body.open("rb") as stdin:
            procs.append(subprocess.Popen(["sh", "-c", command], cwd=root, env=env,
                                          stdin=stdin, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE))
    for proc, path in zip(procs, calls, strict=True):
        out = proc.communicate(timeout=60)[0].decode()
        assert proc.returncode == 0
        assert ("deny" in out) == path.startswith("docs"), (path, out)


def test_a_stop_signal_to_the_caller_reaches_the_call(installed: tuple[Path, str],
                                                      tmp_path: Path) -> None:
    root, command = installed
    env = environment(tmp_path)
    started_resident(root, command, env)
    slow = {**env, "CORREX_TEST_GIT_SLEEP": "5"}
    payload = payloads(root)["allowed write"]
    answers = []
    for caller_env in (slow, {**slow, "CORREX_RESIDENT": "off"}):
        proc = start_hook(root, hook_argv(command), caller_env, payload)
        deadline = time.monotonic() + 20
        while not (tmp_path / GIT_LOG).exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        answers.append((proc.returncode, err.decode()))
        (tmp_path / GIT_LOG).unlink()
    assert answers[0][0] == answers[1][0] == 2, answers
    assert "SIGTERM" in answers[0][1] and "SIGTERM" in answers[1][1], answers


def test_a_caller_killed_takes_its_call_along(installed: tuple[Path, str],
                                              tmp_path: Path) -> None:
    root, command = installed
    started_resident(root, command, environment(tmp_path))
    env = {**environment(tmp_path), "CORREX_TEST_GIT_SLEEP": "30"}
    (tmp_path / GIT_LOG).unlink(missing_ok=True)
    proc = start_hook(root, hook_argv(command), env, payloads(root)["allowed write"],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not git_parents(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.02)
    (child,) = git_parents(tmp_path)
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 5  # its git would keep it 30 s
    while running(child) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not running(child), "the call outlived its caller"


def test_a_resident_process_lost_mid_call_blocks_the_call(installed: tuple[Path, str],
                                                          tmp_path: Path) -> None:
    root, command = installed
    server = started_resident(root, command, environment(tmp_path))
    env = {**environment(tmp_path), "CORREX_TEST_GIT_SLEEP": "3"}
    (tmp_path / GIT_LOG).unlink(missing_ok=True)
    proc = start_hook(root, ["sh", "-c", command], env, payloads(root)["allowed write"])
    deadline = time.monotonic() + 20
    while not git_parents(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(server, signal.SIGKILL)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and LOST in err.decode()


def test_changed_code_is_run_at_the_next_call_and_the_resident_process_retires(
        installed: tuple[Path, str], tmp_path: Path) -> None:
    """An upgrade (here: a copy of the package whose judge then changes) takes effect at
    the very next call: the resident process answers "run it yourself" and ends."""
    root, _ = installed
    copy = tmp_path / "site"
    shutil.copytree(package_dir(), copy / "gitcorrex",
                    ignore=shutil.ignore_patterns("__pycache__"))
    command = hook_command(sys.executable, "claude-code")
    env = environment(tmp_path, PYTHONPATH=str(copy))
    payload = payloads(root)["allowed write"]
    run_hook(root, command, payload, env)
    name = resident_name(sys.executable, str(copy / "gitcorrex"), start_settings(env))
    deadline = time.monotonic() + 30
    server = None
    while server is None and time.monotonic() < deadline:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(name)
                cred = probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
                server = int.from_bytes(cred[:4], sys.byteorder)
            except OSError:
                time.sleep(0.05)
    assert server is not None
    assert run_hook(root, command, payload, env)[0] == 0
    judge = copy / "gitcorrex" / "agents" / "judge.py"
    judge.write_text(judge.read_text().replace(
        '    """The verdict on one hook call; raises on anything that prevents judging it."""',
        '    """The verdict on one hook call."""\n'
        '    raise RuntimeError("the new judge ran")'))
    code, _, err = run_hook(root, command, payload, env)
    assert code == 2 and "the new judge ran" in err
    deadline = time.monotonic() + 10
    while running(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(server), "the outdated resident process kept running"


def test_nothing_is_imported_from_the_project_directory(installed: tuple[Path, str],
                                                        tmp_path: Path) -> None:
    """`python -m` puts the working directory first on `sys.path`: a `json.py` the agent
    wrote there would run inside the hook. The installed command imports nothing from it,
    by itself or through the resident process."""
    root, command = installed
    marker = tmp_path / "imported"
    for name in ("json.py", "subprocess.py", "pathlib.py"):
        write(root, name, f"open({str(marker)!r}, 'a').write({name!r})\n")
    env = environment(tmp_path)
    payload = payloads(root)["write outside the manifest"]
    own = run_hook(root, command, payload, {**env, "CORREX_RESIDENT": "off"})
    started_resident(root, command, env)
    through_resident = run_hook(root, command, payload, env)
    assert not marker.exists(), marker.read_text()
    assert own == through_resident and "deny" in own[1]


def test_an_idle_resident_process_ends(installed: tuple[Path, str], tmp_path: Path) -> None:
    root, command = installed
    env = environment(tmp_path, CORREX_RESIDENT_IDLE_SECONDS="1")
    server = started_resident(root, command, env)
    deadline = time.monotonic() + 15
    while running(server) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not running(server) and resident_pid(env) is None


SQUATTER = """
import socket, sys
name = bytes.fromhex(sys.argv[1])
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(name)
server.listen(8)
print("listening", flush=True)
while True:
    conn, _ = server.accept()
    conn.recv(65536)
    conn.sendall(b"X\\x00")  # "the call ran and exited 0": allowed
    conn.close()
"""


def test_a_process_squatting_the_name_is_not_asked(installed: tuple[Path, str],
                                                  tmp_path: Path) -> None:
    """Anything of this user could bind the resident process's name first and answer
    "allowed" to every call: the launcher talks only to a peer running this interpreter
    with the resident process's own command line and start-up settings."""
    root, command = installed
    env = environment(tmp_path)
    name = resident_name(sys.executable, package_dir(), start_settings(env))
    squatter = subprocess.Popen([sys.executable, "-c", SQUATTER, name.hex()], env=env,
                                stdout=subprocess.PIPE)
    try:
        assert squatter.stdout is not None and squatter.stdout.readline() == b"listening\n"
        code, out, _ = run_hook(root, command, payloads(root)["write outside the manifest"],
                                env)
        assert code == 0 and "deny" in out, out
    finally:
        squatter.kill()
        squatter.wait()


def test_the_resident_process_loads_nothing_that_fixes_the_callers_home() -> None:
    """libgit2 fixes its configuration search path (HOME, XDG_CONFIG_HOME) when it loads:
    loaded by the resident process, every child would read the first caller's global
    config. The resident process loads the modules of the hook's paths, never pygit2 (a
    child loads it, with its caller's environment, when a call records an event)."""
    probe = ("from gitcorrex.cli.resident import _preload; _preload(); import sys; "
             "print(sorted(name for name in ('pygit2', 'click') if name in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True)
    assert out.stdout.decode().strip() == "[]"


def doctor_says(root: Path, env: dict[str, str],
                preexec: Callable[[], None] | None = None) -> dict[str, str]:
    proc = subprocess.run([sys.executable, "-m", "gitcorrex", "doctor", "--json"], cwd=root,
                          env=env, capture_output=True, check=False, preexec_fn=preexec)
    findings = json.loads(proc.stdout)["findings"]
    (found,) = [finding for finding in findings if finding["subject"] == "resident process"]
    return dict(found)


def test_doctor_names_the_resident_process(installed: tuple[Path, str],
                                           tmp_path: Path) -> None:
    root, command = installed
    env = environment(tmp_path)
    assert "the next agent hook call starts one" in doctor_says(root, env)["message"]
    server = started_resident(root, command, env)
    running = doctor_says(root, env)
    assert running["level"] == "ok" and f"pid {server} " in running["message"], running
    assert "and its verify calls" in running["message"], running
    niced = doctor_says(root, env, preexec=lambda: os.nice(5))  # a verify's commands would
    assert niced["level"] == "ok", niced                         # run at another priority
    assert "not its verify calls (this shell's nice differs)" in niced["message"], niced
    off = doctor_says(root, {**env, "CORREX_RESIDENT": "off"})
    assert off["level"] == "info" and "CORREX_RESIDENT=off" in off["message"]
    sandboxed = doctor_says(root, env, preexec=_no_new_privs)  # a shell calls cannot reach
    assert sandboxed["level"] == "info", sandboxed
    assert "confined otherwise than it (NoNewPrivs)" in sandboxed["message"], sandboxed


def test_a_caller_that_sends_nothing_holds_up_no_other_call(installed: tuple[Path, str],
                                                          tmp_path: Path) -> None:
    """Anything of this user may connect and say nothing: only the child it was given
    waits for it (5 s); the resident process goes on taking calls."""
    root, command = installed
    env = environment(tmp_path)
    server = started_resident(root, command, env)
    name = resident_name(sys.executable, package_dir(), start_settings(env))
    silent = [socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) for _ in range(3)]
    try:
        for quiet in silent:
            quiet.connect(name)
        (tmp_path / GIT_LOG).unlink(missing_ok=True)
        started = time.monotonic()
        code, out, _ = run_hook(root, command, payloads(root)["allowed write"], env)
        took = time.monotonic() - started
        assert code == 0 and out == ""
        assert took < 3.0, f"the call waited {took:.1f} s behind callers that sent nothing"
        assert git_parents(tmp_path, generation=1) == {server}
    finally:
        for quiet in silent:
            quiet.close()


def _no_new_privs() -> None:
    """The caller's own `no_new_privs`, as Codex's Linux sandbox (Landlock, seccomp) and
    bubblewrap set it before running an agent's shell."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")


def test_a_caller_confined_otherwise_runs_its_call_itself(installed: tuple[Path, str],
                                                          tmp_path: Path) -> None:
    """A sandboxed shell of the same user that can reach the socket must not have its call
    run outside its sandbox: the resident process answers "run it yourself", and the call
    runs in the caller's own process, with the same answer."""
    root, command = installed
    env = environment(tmp_path)
    server = started_resident(root, command, env)
    for name, payload in payloads(root).items():
        (tmp_path / GIT_LOG).unlink(missing_ok=True)
        confined = subprocess.run(["sh", "-c", command], cwd=root, env=env, input=payload,
                                  capture_output=True, timeout=60, check=False,
                                  preexec_fn=_no_new_privs)
        callers = git_parents(tmp_path, generation=1)
        assert server not in callers, name  # not a child of the resident process
        own = run_hook(root, command, payload, {**env, "CORREX_RESIDENT": "off"})
        assert (confined.returncode, confined.stdout.decode(), confined.stderr.decode()) \
            == own, name
    (tmp_path / GIT_LOG).unlink(missing_ok=True)
    run_hook(root, command, payloads(root)["allowed write"], env)
    assert git_parents(tmp_path, generation=1) == {server}  # the unconfined still served
    assert resident_pid(env) == server


NAMESPACES = {
    # bubblewrap's sandboxes start in a mount namespace of their own (the files they may
    # write bound in); one that keeps the network, PID and user namespaces reaches the
    # abstract socket and can still inspect the resident process as the launcher does
    "mount": ["unshare", "--mount"],
    # an unprivileged one starts in a user namespace of its own: from there the launcher
    # cannot inspect the resident process, nor the resident process the caller
    "user": ["unshare", "--user", "--map-current-user"],
}


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_a_caller_in_another_namespace_runs_its_call_itself(
        installed: tuple[Path, str], tmp_path: Path, namespace: str) -> None:
    """A sandbox's namespaces: the call runs inside them, in the caller's own process."""
    root, command = installed
    env = environment(tmp_path)
    enter = NAMESPACES[namespace]
    probe = subprocess.run([*enter, "true"], capture_output=True, check=False) \
        if shutil.which("unshare") else None
    if probe is None or probe.returncode != 0:
        pytest.skip(f"no {namespace} namespace can be made here ({' '.join(enter)})")
    server = started_resident(root, command, env)
    (tmp_path / GIT_LOG).unlink(missing_ok=True)
    payload = payloads(root)["write outside the manifest"]
    inside = subprocess.run([*enter, "sh", "-c", command], cwd=root, env=env, input=payload,
                            capture_output=True, timeout=60, check=False)
    assert git_parents(tmp_path, generation=1), "the call read nothing"
    assert server not in git_parents(tmp_path, generation=1)
    own = run_hook(root, command, payload, {**env, "CORREX_RESIDENT": "off"})
    assert (inside.returncode, inside.stdout.decode(), inside.stderr.decode()) == own


def _fewer_files() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 200), hard))


def _one_more_group() -> None:
    os.setgroups([*os.getgroups(), 4242])


@pytest.mark.parametrize("differ", [_fewer_files, _one_more_group], ids=["limits", "groups"])
def test_a_caller_with_other_limits_or_groups_runs_its_call_itself(
        installed: tuple[Path, str], tmp_path: Path, differ: Callable[[], None]) -> None:
    """A child of the resident process has the resident process's `ulimit`s and
    supplementary groups: a caller that set its own limits (fewer open files here) runs its
    call itself, under them; one with other groups too (its call must not read what only
    the resident process's groups may)."""
    if differ is _one_more_group and os.geteuid() != 0:
        pytest.skip("changing a process's groups takes root")
    root, command = installed
    env = environment(tmp_path)
    server = started_resident(root, command, env)
    (tmp_path / GIT_LOG).unlink(missing_ok=True)
    payload = payloads(root)["allowed write"]
    other = subprocess.run(["sh", "-c", command], cwd=root, env=env, input=payload,
                           capture_output=True, timeout=60, check=False, preexec_fn=differ)
    assert git_parents(tmp_path, generation=1), "the call read nothing"
    assert server not in git_parents(tmp_path, generation=1)
    assert (other.returncode, other.stdout) == (0, b"")


def test_the_resident_process_keeps_no_descriptor_of_the_call_that_started_it(
        installed: tuple[Path, str], tmp_path: Path) -> None:
    """A host may wait for the end of a pipe its hook inherited (not close-on-exec): the
    resident process that call started must not hold it open for its whole life."""
    import select

    root, command = installed
    env = environment(tmp_path)
    read_end, write_end = os.pipe()
    os.set_inheritable(write_end, True)
    try:
        payload = payloads(root)["allowed write"]
        subprocess.run(["sh", "-c", command], cwd=root, env=env, input=payload,
                       capture_output=True, timeout=60, check=False, pass_fds=(write_end,))
        os.close(write_end)
        wait_for_resident(env)
        ready, _, _ = select.select([read_end], [], [], 10)
        assert ready and os.read(read_end, 1) == b"", "the pipe is still held open"
    finally:
        os.close(read_end)
