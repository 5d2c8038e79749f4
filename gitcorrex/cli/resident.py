"""The resident process behind the agent hook's hand-over (cli/resident_client.py).

It loads the modules an agent hook call and a verify need, once, and then forks one child
per call. The child takes the caller's standard streams (received as descriptors),
working directory, umask, ignored signals, environment and arguments, and runs
`gitcorrex.cli.main`: the same entry, the same code and the same reads as a process of
the caller's own. The resident process itself never runs a command, reads a repository or
keeps an answer: forked children start with every module-level cache empty, so no answer
can be stale.

It serves only:
- this user (the caller's SO_PEERCRED uid), this interpreter and this installation;
- a caller confined exactly as it is (namespaces, `no_new_privs`, seccomp, capabilities,
  LSM label: confinement.py): a sandboxed shell that can reach the socket must
  not have its call run outside its sandbox;
- the start-up settings it was started with (`PYTHON*`, `PYDANTIC_*`, `LANG`, `LC_*`:
  paths, flags, the streams' encoding and pydantic's plugins are fixed when they load);
- `assess --hook AGENT` calls, and `verify` calls (a verify starts one only where the
  watcher is on; nothing else is sent here). A verify's commands run in the child as they run
  in a process of the caller's own: so it is served only for a caller that also shares the
  resident process's cgroup, nice value and allowed CPUs, and never by a resident process
  under `no_new_privs` (confinement.py);
- code that has not changed since it loaded it: every loaded module file, every directory
  on `sys.path` (a package installed or removed) and the interpreter are compared with
  their stamps before each call; any change and it answers "run it yourself" and retires.
Anything else is answered "run it yourself" (the caller then runs the call in its own
process, having read and written nothing).

Lifecycle: started, detached in its own session, by the first caller that finds none; it
binds its name before loading anything, so a second one ends at once; it listens only once
loaded; it ends after `CORREX_RESIDENT_IDLE_SECONDS` (default 600) without a call, on
SIGTERM (after its running calls), or when its code changed. Its loop never waits for a
caller: each child reads its own call. A caller that goes away is followed by its child
(SIGKILL); a stop signal the caller receives is passed on to the child, whose stop-signal
guard answers as any hook process would.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import sys
import threading
import time
from contextlib import suppress
from importlib import import_module

from gitcorrex.cli.resident_client import (
    EXITED,
    FALLBACK,
    IGNORABLE,
    KILLED,
    PROTOCOL,
    SIGNAL,
)
from gitcorrex.cli.resident_request import call_of, receive_request
from gitcorrex.confinement import caller_confined_as, command_confinement, confinement
from gitcorrex.resident_address import package_dir, resident_name, start_settings

IDLE_SETTING = "CORREX_RESIDENT_IDLE_SECONDS"
DEFAULT_IDLE_SECONDS = 600.0
STOP_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
RAN_NOTHING = 254  # a child's exit code: it answered "run it yourself", nothing ran
# What an agent hook call loads on its allow paths and its checks: loading more only costs
# the resident process memory; loading less, the call time (nothing here decides anything).
PRELOAD = (
    "gitcorrex.cli", "gitcorrex.cli.boundary", "gitcorrex.cli.agent_hook",
    "gitcorrex.cli.startup", "gitcorrex.cli.option_parser", "gitcorrex.cli.option_table",
    "gitcorrex.agents.run", "gitcorrex.agents.judge", "gitcorrex.agents.file_calls",
    "gitcorrex.agents.shell_calls", "gitcorrex.agents.workspace_check",
    "gitcorrex.agents.stop_check", "gitcorrex.agents.proven_allow",
    "gitcorrex.hooks.manifest_cache", "gitcorrex.session.state",
    "gitcorrex.session.manifest", "gitcorrex.session.runtime_actor", "gitcorrex.clock",
    "gitcorrex.ledger.provenance", "gitcorrex.agents.reasons", "gitcorrex.manifest.assess",
    "gitcorrex.session.assess_entry",
    # a verify's (its state start, its use case, its runner, the ledger writer, the watcher)
    "gitcorrex.git.state_start", "gitcorrex.cli.head_start", "gitcorrex.cli.verify_run",
    "gitcorrex.cli.progress", "gitcorrex.session.verify_entry", "gitcorrex.verify.observe",
    "gitcorrex.verify.observation", "gitcorrex.runner.environment", "gitcorrex.ledger.append",
    "gitcorrex.git.notes", "gitcorrex.git.watchman",
)


def serve() -> None:
    """Run the resident process until it is idle, stopped or outdated (never returns)."""
    os.chdir("/")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    settings = start_settings(dict(os.environ))
    try:
        listener.bind(resident_name(sys.executable, package_dir(), settings))
    except OSError:
        os._exit(0)  # another one holds the name
    idle = _idle_seconds()
    _preload()
    stamps = code_stamps()
    listener.listen(64)
    Server(listener, settings, stamps, idle).run()


def _idle_seconds() -> float:
    try:
        return max(0.1, float(os.environ.get(IDLE_SETTING, DEFAULT_IDLE_SECONDS)))
    except ValueError:
        return DEFAULT_IDLE_SECONDS


def _preload() -> None:
    from gitcorrex.agents.hosts import HOSTS

    for name in PRELOAD:
        import_module(name)
    for host in HOSTS.values():
        import_module(f"gitcorrex.agents.{host.adapter}")


def code_stamps() -> dict[str, tuple[int, int, int]]:
    """The stamp of every loaded module's file, of the directories on `sys.path` and of
    the interpreter."""
    paths = {sys.executable, *(entry for entry in sys.path if entry)}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str):
            paths.add(path)
    stamps = {}
    for path in paths:
        with suppress(OSError):
            info = os.stat(path)
            stamps[path] = (info.st_mtime_ns, info.st_size, info.st_ino)
    return stamps


def code_unchanged(stamps: dict[str, tuple[int, int, int]]) -> bool:
    for path, stamp in stamps.items():
        try:
            info = os.stat(path)
        except OSError:
            return False
        if (info.st_mtime_ns, info.st_size, info.st_ino) != stamp:
            return False
    return True


class Server:
    """The accept loop: a child per call, its exit code sent back when it ends.

    The loop itself never waits for a caller: it accepts, checks the peer's user and its
    own code, and forks; the child reads the call (a caller that connects and sends
    nothing holds up only its own child), checks it, and runs it, watching its caller."""

    def __init__(self, listener: socket.socket, settings: list[str],
                 stamps: dict[str, tuple[int, int, int]], idle: float) -> None:
        self.listener: socket.socket | None = listener
        self.settings = settings
        self.confined = confinement(os.getpid())  # what a caller must share (confinement.py)
        self.confined_commands = command_confinement(os.getpid())  # and one that runs commands
        self.stamps = stamps
        self.idle = idle
        self.calls: dict[int, socket.socket] = {}  # each child's caller, by the child's pid
        self.wake_r, self.wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.poller = select.poll()
        self.last = time.monotonic()

    def run(self) -> None:
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGTERM, lambda *_: self.retire())
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        self.poller.register(self.wake_r, select.POLLIN)
        if self.listener is not None:
            self.poller.register(self.listener.fileno(), select.POLLIN)
        while self.listener is not None or self.calls:
            if self.calls or self.listener is None:
                timeout: float | None = None  # a running call: wait for it
            else:
                timeout = max(0.0, self.last + self.idle - time.monotonic()) * 1000
            events = self.poller.poll(timeout)
            if not events and not self.calls:
                self.retire()  # idle
            for fd, _ in events:
                if fd == self.wake_r:
                    with suppress(BlockingIOError):
                        os.read(self.wake_r, 512)
                    self.reap()
                elif self.listener is not None and fd == self.listener.fileno():
                    self.accept()
        os._exit(0)

    def retire(self) -> None:
        """Stop taking calls (the name is free at once); end when the running ones ended."""
        if self.listener is not None:
            with suppress(KeyError, ValueError):
                self.poller.unregister(self.listener.fileno())
            self.listener.close()
            self.listener = None

    def accept(self) -> None:
        if self.listener is None:
            return
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        self.last = time.monotonic()
        try:
            self.start(conn)
        except Exception:
            conn.close()

    def start(self, conn: socket.socket) -> None:
        """Fork the call's child, or answer "run it yourself" (another user; code that
        changed since it was loaded, and then retire)."""
        cred = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
        if int.from_bytes(cred[4:8], sys.byteorder) != os.getuid():
            conn.close()
            return
        peer = int.from_bytes(cred[:4], sys.byteorder)  # 0: in a PID namespace we cannot see
        if not code_unchanged(self.stamps):
            self.retire()
            with suppress(OSError):
                conn.sendall(FALLBACK + b"-")
            conn.close()
            return
        pid = os.fork()
        if pid == 0:
            self.child(conn, peer)
        self.calls[pid] = conn

    def child(self, conn: socket.socket, peer: int) -> None:
        """The call, run as a fresh hook process would run it (never returns); "run it
        yourself" to a caller confined otherwise than this process (confinement.py)."""
        try:
            signal.set_wakeup_fd(-1)
            for signo in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                signal.signal(signo, signal.SIG_DFL)
            if self.listener is not None:
                self.listener.close()
            for caller in self.calls.values():
                caller.close()
            os.close(self.wake_r)
            os.close(self.wake_w)
            received = receive_request(conn)
            call = None if received is None else self.admitted(received[0])
            if call is not None and not self.confined_as(conn, peer, call[0]):
                call = None
            if received is None or call is None:
                with suppress(OSError):
                    conn.sendall(FALLBACK + b"-")
                os._exit(RAN_NOTHING)
            fields, fds, after = received
            _run_call(fields, *call, fds, conn, after)
        except BaseException:
            pass
        os._exit(2)

    def admitted(self, fields: list[bytes]) -> tuple[list[str], dict[str, str]] | None:
        """The call's arguments and environment, when this process may run it."""
        if len(fields) < 7 or fields[0] != PROTOCOL:
            return None
        if os.fsdecode(fields[1]) != sys.executable or os.fsdecode(fields[2]) != package_dir():
            return None
        args, environ = call_of(fields)
        if args is None or environ is None or start_settings(environ) != self.settings:
            return None
        from gitcorrex.cli import handed_over

        return (args, environ) if handed_over(args) else None

    def confined_as(self, conn: socket.socket, peer: int, args: list[str]) -> bool:
        """Whether the caller is confined as this process, as far as its call needs: a
        call that runs the profile's commands needs more (confinement.py)."""
        from gitcorrex.cli import runs_commands

        if runs_commands(args):
            return caller_confined_as(conn, peer, self.confined_commands, runs_commands=True)
        return caller_confined_as(conn, peer, self.confined)

    def reap(self) -> None:
        while self.calls:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.calls.pop(pid, None)
            if conn is None:
                continue
            code = os.waitstatus_to_exitcode(status)
            if code != RAN_NOTHING:  # the child answered "run it yourself" itself
                ended = KILLED + bytes([-code]) if code < 0 else EXITED + bytes([code])
                with suppress(OSError):  # killed (the OOM killer, SIGKILL): the call is lost
                    conn.sendall(ended)
            conn.close()


def _run_call(fields: list[bytes], args: list[str], environ: dict[str, str], fds: list[int],
              conn: socket.socket, after: bytes) -> None:
    """Become the caller's process: its streams, directory, umask, ignored signals,
    environment and arguments, its stop signals passed on (`_follow`), then the one entry
    (never returns)."""
    for target, fd in zip((0, 1, 2), fds, strict=True):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    os.chdir(os.fsdecode(fields[3]))
    os.umask(int(fields[4]))
    _ignore_as_the_caller(fields[5])
    os.environ.clear()
    os.environ.update(environ)
    time.tzset()
    sys.argv = [sys.argv[0], *args]
    _pass_on(after)
    threading.Thread(target=_follow, args=(conn,), daemon=True, name="correx-caller").start()
    from gitcorrex.cli import main

    main(args)


def _ignore_as_the_caller(listed: bytes) -> None:
    """Ignore exactly the standard signals the caller ignores (SIGCHLD aside: this process
    waits for its children): a command inherits ignored signals, so a test that interrupts
    itself must meet here what it meets under the caller. A signal the caller does not
    ignore gets its default, as it has in a process the caller starts."""
    ignored = {int(signo) for signo in listed.split(b",") if signo}
    for signo in IGNORABLE:
        if signo == signal.SIGCHLD:
            continue
        if signo in ignored:
            signal.signal(signo, signal.SIG_IGN)
        elif signal.getsignal(signo) == signal.SIG_IGN:
            signal.signal(signo, signal.SIG_DFL)


def _follow(conn: socket.socket) -> None:
    """Watch the caller: a stop signal it received is raised here; the caller gone (killed)
    ends this call too, as a process of its own would have ended with it."""
    while True:
        try:
            data = conn.recv(64)
        except OSError:
            data = b""
        if not data:
            os.kill(os.getpid(), signal.SIGKILL)
            return
        _pass_on(data)


def _pass_on(data: bytes) -> None:
    """Raise in this process the stop signals its caller received (`S` and the number)."""
    for at in range(0, len(data) - 1, 2):
        if data[at:at + 1] == SIGNAL and data[at + 1] in STOP_SIGNALS:
            os.kill(os.getpid(), data[at + 1])
