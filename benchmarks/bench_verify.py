"""What `git correx verify` adds on top of the command it verifies, in units of `git status`.

On a generated repository (default 50,000 committed files, 100 modified, 100 untracked)
with a profile whose only command is `true`, times whole processes side by side:

    bare      true                                      (the command itself)
    correx    git-correx verify --quiet --expect noop   (state key before and after,
                                                         run, record one event)
    scale     git status

Overhead = median(correx) - median(bare); the target is overhead <= 1.5 x median(git status).
Also timed, to show the floor of the design: `git diff-files` twice (the two stat passes
over every tracked file a verify must make, before and after the command: a pass recorded
for a key the command did not see would break the known-good invariant), and, with
`--watch` (watchman installed), verify and state again after `git correx watch start`
(the first key from watchman, the second still a full scan), and, with `--resident`,
verify handed to the resident process an agent hook call started (cli/resident.py; the CPU
of its child added to the row's), with and without the watcher. The rows of a process of
its own run with `CORREX_RESIDENT=off`. Exits 1 when every row misses the target. Usage:

    python benchmarks/bench_verify.py [--runs N] [--files N] [--workdir DIR] [--watch]
                                      [--resident]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from common import (
    correx_script,
    cpu_table,
    load_average,
    make_large_repo,
    markdown_table,
    median,
    standard_args,
    time_commands_cpu,
)

from gitcorrex.resident_address import OFF, package_dir, resident_name, start_settings

PROFILE = """\
version = 1
[commands]
noop = "true"
[expectations]
noop = ["noop"]
"""


def parse_args() -> argparse.Namespace:
    parser = standard_args(__doc__ or "", max_ratio=1.5)
    parser.add_argument("--watch", action="store_true",
                        help="also time verify and state with the watcher on")
    parser.add_argument("--resident", action="store_true",
                        help="also time verify through the resident process (started by an "
                             "agent hook call, as in an agent's session)")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    repo = make_large_repo(args.workdir / f"verify-{args.files}", files=args.files)
    (repo / ".correx.toml").write_text(PROFILE)
    verify = [*correx_script(), "verify", "--quiet", "--expect", "noop"]
    commands: dict[str, list[str] | str] = {
        "true (the bare command)": ["true"],
        "git-correx verify --quiet --expect noop": verify,
        "git status": ["git", "status"],
        "git-correx state": [*correx_script(), "state"],
        "floor: git diff-files twice (two stat passes)":
            "git diff-files --quiet; git diff-files --quiet; true",
    }
    os.environ[OFF] = "off"  # a process of its own, whether or not a resident process runs
    load = load_average()
    times, cpu = time_commands_cpu(commands, args.runs, cwd=repo)
    bare = median(times["true (the bare command)"])
    print(f"repository: {args.files} files, 100 modified, 100 untracked; {args.runs} runs\n")
    print(f"load average before {load}, after {load_average()}\n")
    ratio = report(times, cpu, "git-correx verify --quiet --expect noop", bare,
                   args.max_ratio, floor=True)
    for watcher in ([False, True] if args.watch else [False]):
        if watcher:
            watch(repo, "start")
        try:
            if watcher:
                ratio = min(ratio, watched_rows(repo, commands, args, bare))
            if args.resident:
                ratio = min(ratio, resident_rows(repo, verify, args, bare, watcher))
        finally:
            if watcher:
                watch(repo, "stop")
    return 0 if ratio <= args.max_ratio else 1


def report(times: dict[str, list[float]], cpu: dict[str, list[float]], name: str,
           bare: float, max_ratio: float, floor: bool = False,
           extra_cpu: float = 0.0) -> float:
    """The tables and verify's overhead in `git status` units (`extra_cpu`: the resident
    process's child, per run, which is not this process's child)."""
    print(markdown_table(times, baseline="git status"))
    print()
    print(cpu_table(cpu))
    overhead = median(times[name]) - bare
    ratio = overhead / median(times["git status"])
    cpu_overhead = median(cpu[name]) + extra_cpu
    print(f"\nCPU: overhead {cpu_overhead * 1000:.1f} ms = "
          f"{cpu_overhead / median(cpu['git status']):.2f} x git status's CPU"
          + (f" (the resident process's child: {extra_cpu * 1000:.1f} ms a run)"
             if extra_cpu else ""))
    print(f"\n{name}: overhead over the bare command {overhead * 1000:.1f} ms = "
          f"{ratio:.2f} x git status (target <= {max_ratio})"
          + ("; the floor above: two stat passes" if floor else "") + "\n")
    return ratio


def watch(repo: Path, action: str) -> None:
    done = subprocess.run([*correx_script(), "watch", action], cwd=repo, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0 and action == "start":
        raise SystemExit(f"watch start failed: {done.stderr.strip()}")


def watched_rows(repo: Path, commands: dict[str, list[str] | str], args: argparse.Namespace,
                 bare: float) -> float:
    print(f"with the watcher on (load {load_average()}):\n")
    watched = {f"{name}, watcher on": command for name, command in commands.items()
               if name.startswith("git-correx")}
    more, more_cpu = time_commands_cpu({"git status": ["git", "status"], **watched},
                                       args.runs, cwd=repo)
    return report(more, more_cpu, "git-correx verify --quiet --expect noop, watcher on",
                  bare, args.max_ratio)


def resident_rows(repo: Path, verify: list[str], args: argparse.Namespace, bare: float,
                  watcher: bool) -> float:
    """verify handed to the resident process an agent hook call started (cli/resident.py),
    the way an agent's session runs it."""
    environ = {name: value for name, value in os.environ.items() if name != OFF}
    pid = start_resident(repo, environ)
    name = "git-correx verify --quiet --expect noop, resident process" + \
        (", watcher on" if watcher else "")
    print(f"through the resident process (pid {pid}){', watcher on' if watcher else ''} "
          f"(load {load_average()}):\n")
    del os.environ[OFF]
    try:
        before = children_cpu(pid)
        times, cpu = time_commands_cpu({"git status": ["git", "status"], name: verify},
                                       args.runs, cwd=repo)
        per_run = (children_cpu(pid) - before) / (args.runs + 1)  # + the warm-up run
    finally:
        os.environ[OFF] = "off"
    return report(times, cpu, name, bare, args.max_ratio, extra_cpu=per_run)


def start_resident(repo: Path, environ: dict[str, str]) -> int:
    """One agent hook call through the console script starts the resident process of its
    interpreter (the one a verify through it hands over to); its pid once it answers."""
    script = correx_script()
    interpreter = script[0] if script[0] == sys.executable else \
        Path(script[0]).read_text(errors="replace").splitlines()[0].removeprefix("#!")
    name = resident_name(interpreter, package_dir(), start_settings(environ))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        subprocess.run([*script, "assess", "--hook", "claude-code"], cwd=repo, env=environ,
                       input=b"{}", capture_output=True, check=False)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(name)
            except OSError:
                time.sleep(0.2)
                continue
            cred = probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
            return int.from_bytes(cred[:4], sys.byteorder)
    raise SystemExit("no resident process started (not Linux, or CORREX_RESIDENT=off?)")


def children_cpu(pid: int) -> float:
    """CPU seconds the resident process's reaped children (its calls) used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    sys.exit(main())
