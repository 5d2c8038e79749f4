"""What confines a process, as Linux shows it: read by the resident process before it runs a
caller's call (cli/resident.py).

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
inside its own sandbox, as it would with no resident process at all. The cgroup is not
compared: it limits resources, not what a process may reach, and every terminal of a
desktop session has its own.

Landlock itself leaves no trace in `/proc`; every unprivileged Landlock domain requires
`no_new_privs`, which is compared.
"""

from __future__ import annotations

NAMESPACES = ("cgroup", "ipc", "mnt", "net", "pid", "pid_for_children", "time",
              "time_for_children", "user", "uts")
STATUS_FIELDS = ("NoNewPrivs", "Seccomp", "Seccomp_filters", "CapInh", "CapPrm", "CapEff",
                 "CapBnd", "CapAmb")


def confinement(pid: int) -> tuple[str, ...] | None:
    """The namespaces, `/proc/PID/status` confinement fields and LSM label of process
    `pid`, in a fixed order; None when any of them cannot be read."""
    import os

    proc = f"/proc/{pid}"
    try:
        found = [f"{name}={os.readlink(f'{proc}/ns/{name}')}" for name in NAMESPACES
                 if os.path.lexists(f"{proc}/ns/{name}")]
        with open(f"{proc}/status", encoding="utf-8", errors="replace") as status:
            fields = dict(line.partition(":")[::2] for line in status)
        found += [f"{name}={fields.get(name, '').strip()}" for name in STATUS_FIELDS]
        found.append(f"label={_label(proc)}")
    except OSError:
        return None
    return tuple(found)


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
