"""Where the resident process of agent hook calls is found, and how it is recognised.

One resident process serves one user, interpreter, installation and set of start-up
settings (cli/resident.py). Its address is a Linux abstract Unix socket named for them
(no file anyone could replace; a sandboxed shell in another network namespace cannot reach
it), and a process holding that name is asked only when it is this user's, runs this
interpreter with the resident process's own command line and has the same start-up
settings. The hand-over (cli/resident_client.py), the resident process itself and
`doctor` all find it here; built-in modules only: the hand-over loads this before anything
else of ours.
"""

import _socket
import os
import sys

OFF = "CORREX_RESIDENT"
# Settings read once at start-up (Python's paths, flags and streams' encoding; pydantic's
# plugins, when the models load): a resident process serves only calls that start with the
# same ones, so each set gets its own.
START_PREFIXES = ("PYTHON", "PYDANTIC_", "LC_")
START_NAMES = ("LANG", "LANGUAGE")
SERVE = ("import sys; sys.path[:1] = [p for p in sys.path[:1] if p]; "
         "from gitcorrex.cli.resident import serve; serve()")


def package_dir() -> str:
    """The installed `gitcorrex` package this module belongs to."""
    return os.path.dirname(os.path.realpath(__file__))


def start_settings(environ: dict[str, str]) -> list[str]:
    """The `NAME=value` start-up settings of `environ`, sorted."""
    return sorted(f"{name}={value}" for name, value in environ.items()
                  if name.startswith(START_PREFIXES) or name in START_NAMES)


def resident_name(executable: str, package: str, settings: list[str]) -> bytes:
    """The abstract socket name of the resident process for this user, interpreter (as
    named: a virtualenv's own path, not the binary it links to), installation and start-up
    settings (FNV-1a of them: the process checks each itself)."""
    digest = 0xcbf29ce484222325
    for byte in "\0".join([executable, package, *settings]).encode("utf-8", "surrogateescape"):
        digest = ((digest ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"\0gitcorrex-resident-{os.getuid()}-{digest:016x}".encode()


def peer_is_ours(sock: _socket.socket, settings: list[str]) -> bool:
    """The process on the other end is this user's resident process as `start_resident`
    starts it: this interpreter, this command line, the same start-up settings. A process
    of another program cannot pass; one that could would already run inside every hook
    process (a writable `site-packages`, a `usercustomize` module)."""
    cred = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    pid, uid = int.from_bytes(cred[0:4], sys.byteorder), int.from_bytes(cred[4:8], sys.byteorder)
    if uid != os.getuid():
        return False
    try:
        if os.readlink(f"/proc/{pid}/exe") != os.path.realpath(sys.executable):
            return False
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            if handle.read() != b"\0".join(map(os.fsencode, serve_argv())) + b"\0":
                return False
        with open(f"/proc/{pid}/environ", "rb") as handle:
            entries = handle.read().split(b"\0")
    except OSError:
        return False
    environ = dict(os.fsdecode(entry).partition("=")[::2] for entry in entries if b"=" in entry)
    return start_settings(environ) == settings


def serve_argv() -> list[str]:
    """The resident process's command line."""
    return [sys.executable, "-c", SERVE]


def running_resident(environ: dict[str, str]) -> int | None:
    """The pid of the resident process that would take this interpreter's agent hook calls
    under `environ`, when one answers and is ours; None otherwise (or on another platform)."""
    if not sys.platform.startswith("linux"):
        return None
    settings = start_settings(environ)
    probe = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM | _socket.SOCK_CLOEXEC)
    try:
        probe.connect(resident_name(sys.executable, package_dir(), settings))
        if not peer_is_ours(probe, settings):
            return None
        cred = probe.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
        return int.from_bytes(cred[0:4], sys.byteorder)
    except OSError:
        return None
    finally:
        probe.close()
