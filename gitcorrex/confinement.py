"""What confines a process, as Linux shows it: read by the resident process before it runs a
caller's call (cli/resident.py), and by `doctor` to say whether this shell's calls reach it.

An agent's shell may run inside a sandbox that keeps the user's uid but narrows what the
process can do: Claude Code's and Cursor's (bubblewrap: new namespaces), Codex's on Linux
(Landlock and seccomp, both behind `no_new_privs`), a container's (namespaces, dropped
capabilities, an LSM profile). Such a shell can still reach the resident process's
abstract socket whenever it shares the network namespace. A call the resident process ran
for it would run outside the sandbox, with an environment the sandboxed caller chose (git
configuration among it: `GIT_CONFIG_*` can name programs git starts), so it would be an
escape. The resident process therefore serves only callers confined exactly as it is
itself: the same namespaces, `no_new_privs`, seccomp mode and filter count, capability
sets and LSM label. Anything it cannot read (another process's namespaces need the right
to inspect it) counts as different. A caller refused runs the call in its own process,
inside its own sandbox, as it would with no resident process at all. The resource
limits (`ulimit`) are compared too: a child runs with the resident process's, and a call
must run with its caller's (open files, address space, processes), as a process of its
own would. The cgroup is not compared: it limits resources, not what a process may reach,
and every terminal of a desktop session has its own.

Landlock itself leaves no trace in `/proc`; every unprivileged Landlock domain requires
`no_new_privs`, which is compared. The supplementary groups are compared too: a child with
more than its caller could read what the caller cannot.

A call that runs the profile's commands (`verify`) asks more: the commands must run as a
process of the caller's own would run them. So the resident process must not be under
`no_new_privs` itself (two processes behind it may hold different Landlock domains that
nothing shows), and the caller must share its cgroup (the resource limits and the
accounting a runner ends its job's processes by), its nice value and the CPUs and memory
nodes it may use (`runs_commands`).

The caller is named by its pid (`SO_PEERCRED`), and a pid is given to another process once
its own ended. So the caller is pinned first by a pidfd (`SO_PEERPIDFD`, Linux 6.5; else
one opened at once), and its `/proc` entries count only when that pidfd names the same pid
and the process is still alive after they were read: a caller that connects, sends its
call and exits cannot have another process's confinement read in its place.
"""

from __future__ import annotations

import os
import signal
import socket
import sys

NAMESPACES = ("cgroup", "ipc", "mnt", "net", "pid", "pid_for_children", "time",
              "time_for_children", "user", "uts")
STATUS_FIELDS = ("NoNewPrivs", "Seccomp", "Seccomp_filters", "CapInh", "CapPrm", "CapEff",
                 "CapBnd", "CapAmb", "Groups")
COMMAND_STATUS_FIELDS = ("Cpus_allowed_list", "Mems_allowed_list")
UNSANDBOXED = "NoNewPrivs=0"


def confinement(pid: int, *, runs_commands: bool = False) -> tuple[str, ...] | None:
    """The namespaces, `/proc/PID/status` confinement fields, LSM label and resource limits
    of process `pid`, in a fixed order, and with `runs_commands` its cgroup, nice value and
    allowed CPUs and memory nodes too; None when any of them cannot be read."""
    proc = f"/proc/{pid}"
    try:
        found = [f"{name}={os.readlink(f'{proc}/ns/{name}')}" for name in NAMESPACES
                 if os.path.lexists(f"{proc}/ns/{name}")]
        with open(f"{proc}/status", encoding="utf-8", errors="replace") as status:
            fields = dict(line.partition(":")[::2] for line in status)
        found += [f"{name}={fields.get(name, '').strip()}" for name in STATUS_FIELDS]
        found.append(f"label={_label(proc)}")
        with open(f"{proc}/limits", encoding="ascii", errors="replace") as limits:
            found.append(f"limits={limits.read()}")
        if runs_commands:
            found += [f"{name}={fields.get(name, '').strip()}"
                      for name in COMMAND_STATUS_FIELDS]
            with open(f"{proc}/stat", "rb") as stat:  # field 19, after the command's ")"
                found.append(f"nice={stat.read().rsplit(b')', 1)[1].split()[16].decode()}")
            with open(f"{proc}/cgroup", encoding="utf-8", errors="replace") as cgroup:
                found.append(f"cgroup={cgroup.read()}")
    except (OSError, IndexError):
        return None
    return tuple(found)


def command_confinement(pid: int) -> tuple[str, ...] | None:
    """What a caller whose call runs the profile's commands must share with process `pid`
    (the resident process); None when `pid` is under `no_new_privs`, so that no caller does
    (module docstring)."""
    found = confinement(pid, runs_commands=True)
    return found if found is not None and UNSANDBOXED in found else None


def _label(proc: str) -> str:
    """The process's LSM label (AppArmor, SELinux, Smack); "" where no LSM gives one."""
    try:
        with open(f"{proc}/attr/current", encoding="utf-8", errors="replace") as label:
            return label.read().strip("\0\n ")
    except OSError as exc:
        import errno

        if exc.errno in (errno.EINVAL, errno.ENOENT, errno.EOPNOTSUPP):
            return ""  # no LSM answers here: nothing to compare
        raise


def first_difference(mine: tuple[str, ...] | None,
                     theirs: tuple[str, ...] | None) -> str | None:
    """What differs first between two confinements, by name (`mnt`, `NoNewPrivs`,
    `limits`...): the words `doctor` shows; "unreadable" when either could not be read;
    None when they are the same."""
    if mine is None or theirs is None:
        return "unreadable"
    for one, other in zip(mine, theirs, strict=False):
        if one != other:
            return one.partition("=")[0]
    return None if len(mine) == len(theirs) else "namespaces"


SO_PEERPIDFD = getattr(socket, "SO_PEERPIDFD", 77)  # Linux 6.5; Python 3.11 lacks the name


def caller_confined_as(conn: socket.socket, peer: int, own: tuple[str, ...] | None, *,
                       runs_commands: bool = False) -> bool:
    """Whether the process at the other end of `conn` (pid `peer`, from SO_PEERCRED) is
    confined exactly as `own` says, read while it is pinned (module docstring); `own` is
    `command_confinement`'s for a call that runs the profile's commands."""
    if own is None or peer <= 0:
        return False
    pinned = _pidfd(conn, peer)
    if pinned is None:
        return False
    try:
        return (_pidfd_pid(pinned) == peer
                and confinement(peer, runs_commands=runs_commands) == own
                and _alive(pinned))
    finally:
        os.close(pinned)


def _pidfd(conn: socket.socket, peer: int) -> int | None:
    try:
        raw = conn.getsockopt(socket.SOL_SOCKET, SO_PEERPIDFD, 4)
        return int.from_bytes(raw, sys.byteorder, signed=True)
    except OSError:  # an older kernel: the pid as it is now, checked against SO_PEERCRED
        try:
            return os.pidfd_open(peer)
        except OSError:
            return None


def _pidfd_pid(pidfd: int) -> int | None:
    """The pid a pidfd names (-1 once the process ended); None when unreadable."""
    try:
        with open(f"/proc/self/fdinfo/{pidfd}", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("Pid:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def _alive(pidfd: int) -> bool:
    try:
        signal.pidfd_send_signal(pidfd, 0)  # checks only: signal 0 is never delivered
    except OSError:
        return False
    return True
