"""The agent hook's hand-over: a resident process runs the call, else this process does.

An agent runs its hook once per tool call, hundreds of times a task. Started afresh, a hook
pays the interpreter and ~100 modules before it decides anything (~2.5 times `python -c
pass`); a resident process that has them loaded forks a child per call instead, and the
child runs the very same entry (`gitcorrex.cli.main`) on the call's own arguments,
environment, working directory and standard streams (passed as descriptors), reading
everything it decides on afresh: the resident process keeps modules, never answers
(cli/resident.py).

A verify is handed over the same way when a resident process runs already (with the
watcher answering its first key, the interpreter and its modules are a third of its
cost); a verify starts one only where the watcher is on.

`gitcorrex.cli.main` calls `hand_over` first for such a call, before anything else
of ours is loaded, so this module uses only the interpreter's built-in modules. It connects
to the resident process of this interpreter, this installation and these start-up settings
(an abstract Unix socket: Linux only; a sandboxed shell in another network namespace cannot
reach or squat it), checks that the peer is this user's process running this interpreter,
sends the call, passes stop signals on, and ends the process with the child's exit code.
Whenever that is not possible — no resident process (an agent hook call starts one for
the next calls),
`CORREX_RESIDENT=off`, another platform, the resident process's code is older than the
installed code — it returns having read and written nothing, and the call runs here, as
it always did. A resident process lost in mid-call is a blocked call: exit 2 (the
installed command maps any failure to the host's blocking answer).
"""

import _signal
import _socket
import os
import sys

from gitcorrex.resident_address import (
    OFF,
    package_dir,
    peer_is_ours,
    resident_name,
    serve_argv,
    start_settings,
)

PROTOCOL = b"correx-resident-2"
FORWARDED = (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP)
FALLBACK, EXITED, KILLED, SIGNAL = b"F", b"X", b"K", b"S"
LOST = ("git correx: the resident hook process ended before it answered, so this call is "
        "blocked; run it again (CORREX_RESIDENT=off runs every call in its own process)\n")
LOST_VERIFY = ("git correx: the resident process ended before this verify did, so whether it "
               "recorded is unknown; run it again (CORREX_RESIDENT=off runs it in its own "
               "process)\n")


def request_bytes(args: list[str], environ: dict[str, str]) -> bytes:
    """What the resident process needs to run the call as this process would: among it
    the signals this process ignores (a background job ignores SIGINT), which every command
    it starts inherits."""
    umask = os.umask(0o22)
    os.umask(umask)
    fields = [PROTOCOL, os.fsencode(sys.executable),
              os.fsencode(package_dir()), os.fsencode(os.getcwd()), b"%d" % umask,
              b",".join(b"%d" % signo for signo in ignored_signals()),
              b"%d" % len(args), *map(os.fsencode, args),
              *(os.fsencode(f"{name}={value}") for name, value in environ.items())]
    body = b"\0".join(fields)
    return len(body).to_bytes(4, "little") + body


# The standard signals a process may ignore (SIGKILL and SIGSTOP cannot be): what the
# request carries and what the resident process's child mirrors
IGNORABLE = tuple(signo for signo in range(1, 32)
                  if signo not in (_signal.SIGKILL, _signal.SIGSTOP))


def ignored_signals() -> list[int]:
    """The standard signals this process ignores."""
    return [signo for signo in IGNORABLE if _signal.getsignal(signo) == _signal.SIG_IGN]


def start_resident(environ: dict[str, str]) -> None:
    """Start a resident process for the next calls, detached and quiet; a second one that
    finds the name taken ends at once (cli/resident.py). When none can start, every call
    runs in its own process, as without one.

    Forked and executed, not `posix_spawn`ed: glibc's `posix_spawn` leaves its two
    internal signals (32 and 33) ignored in the new program, which every command a verify
    in the resident process ran would then inherit, unlike a command its caller starts.
    (This process is single-threaded here: nothing else of ours has started yet.)"""
    try:
        pid = os.fork()
    except OSError:
        return
    if pid != 0:
        return
    try:  # the child: detached, quiet, then the resident process
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))  # a pipe a host waits on never stays
        os.execve(sys.executable, serve_argv(), environ)
    finally:
        os._exit(127)


def _watched() -> bool:
    """The watcher is on for the repository here (loaded only when no resident process
    answered: the call then runs here and loads that module anyway)."""
    from gitcorrex.git import watcher_on_here

    return watcher_on_here()


def _tell(sock: _socket.socket, signo: int) -> None:
    """Pass a stop signal on (the call's child raises it in itself); a resident process
    that is gone is noticed by the wait for the answer."""
    try:
        sock.sendall(SIGNAL + bytes([signo]))
    except OSError:
        return


def hand_over(args: list[str], *, agent_hook: bool) -> None:
    """Have the resident process run this call and end this process with its exit code;
    return (nothing read, nothing written, signals as they were) when the call must run
    here instead. When none runs, an agent hook call starts one for the next calls, and so
    does a verify where the watcher is on (whoever ran `watch start` chose a process that
    keeps watching; elsewhere a verify run now and then leaves no process behind); a
    resident process lost in mid-call blocks a hook call (exit 2) and leaves a verify
    unknown: an environmental fault (exit 3)."""
    environ = dict(os.environ)
    if environ.get(OFF) == "off" or not sys.platform.startswith("linux"):
        return
    try:
        request = request_bytes(args, environ)
    except OSError:  # the current directory is gone: said here by the call's own boundary
        return
    settings = start_settings(environ)
    name = resident_name(sys.executable, package_dir(), settings)
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM | _socket.SOCK_CLOEXEC)
    try:
        sock.connect(name)
    except OSError:
        sock.close()
        if agent_hook or _watched():
            start_resident(environ)
        return
    if not peer_is_ours(sock, settings):
        sock.close()
        return
    sent: list[bool] = []
    pending: list[int] = []

    def forward(signo: int, _frame: object) -> None:
        pending.append(signo)  # raised here again if the call comes back unstarted
        if sent:  # else passed on once the call is on its way
            _tell(sock, signo)

    previous = {signo: _signal.getsignal(signo) for signo in FORWARDED}
    for signo, handler in previous.items():
        if handler != _signal.SIG_IGN:  # ignored here: ignored by the call
            _signal.signal(signo, forward)
    fds = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in (0, 1, 2))
    try:
        sent_bytes = sock.sendmsg([request], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)])
        if sent_bytes < len(request):  # the rest of a large environment
            sock.sendall(request[sent_bytes:])
    except OSError:  # the request is not whole: nothing was started, run it here
        sock.close()
        _restore(previous)
        for signo in pending:
            _signal.raise_signal(signo)
        return
    sent.append(True)
    for signo in pending:
        _tell(sock, signo)
    reply = b""
    while len(reply) < 2:
        try:
            chunk = sock.recv(2 - len(reply))
        except OSError:  # the resident process is gone: whether the child ran is unknown
            break
        if not chunk:
            break
        reply += chunk
    if reply[:1] == FALLBACK:  # the resident process started nothing
        sock.close()
        _restore(previous)
        for signo in pending:
            _signal.raise_signal(signo)
        return
    if reply[:1] == EXITED and len(reply) == 2:
        os._exit(reply[1])
    os.write(2, (LOST if agent_hook else LOST_VERIFY).encode())
    os._exit(2 if agent_hook else 3)


def _restore(handlers: dict[int, object]) -> None:
    for signo, handler in handlers.items():
        _signal.signal(signo, handler)
