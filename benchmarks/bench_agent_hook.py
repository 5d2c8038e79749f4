"""Agent hook calls as an agent pays for them: one whole `git correx assess --hook` process.

Two measurements, whole processes, round-robin after one warm-up each:

1. **PreToolUse Write, small repository** (a profile whose stage allows `/src/**`, the write
   allowed — what nearly every call of an agent session is): target ≤ 0.1 s median. Shown
   next to `python -c pass` (the interpreter's own start-up on this machine), a denied
   write (which records a `tool_call_assessed` event), and PreToolUse Bash calls (the shell
   text judged for operator commands, agents/shell_calls.py: one allowed, one denied).
2. **PostToolUse Bash, 50,000 files** (100 modified, 100 untracked, all inside the
   manifest, so the call is allowed): one state scan plus one tree diff, reported in units
   of `git status --porcelain` and next to `git correx state`.

The PreToolUse Write rows run the command `hooks install --agent claude-code` writes (the
launcher, cli/resident_client.py, handing the call to the resident process, started by a
first call before timing), the same with every call in its own process
(`CORREX_RESIDENT=off`), and the console script `git-correx`.

Prints medians, min and max of wall-clock time, the median CPU time (user + system of the
process and its git children, and for a call the resident process answered, its child's:
what the call costs whatever else runs on the machine), the load average before and after,
and exits 1 when the PreToolUse median wall time misses `--max-seconds` or an allowed
write (installed hook; stage, session step) misses `--max-startups`. Usage:

    python benchmarks/bench_agent_hook.py [--runs N] [--files N] [--workdir DIR]
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from common import (
    IDENTITY,
    correx_script,
    git,
    git_version,
    make_large_repo,
    median,
    standard_args,
)

from gitcorrex.agents.install import hook_command
from gitcorrex.resident_address import package_dir, resident_name, start_settings

PROFILE = 'version = 1\n\n[stages.implement]\nwrites = ["/src/**", "/untracked/**"]\n'
SESSION_PROFILE = """version = 1
[commands]
test = "true"
[expectations]
test = ["test"]
[stages.implement]
build_expectation = "test"
writes = ["src/**"]
"""
SESSION_PLAN = {"version": 1, "id": "bench", "risk": "low", "steps": [
    {"id": "S1", "stage": "implement", "writes": ["src/a.py"], "expected_outputs": ["S1 works"],
     "checks": ["test"], "verification_map": [{"output": 0, "evidence": [{"check": 0}]}],
     "dependencies": []}]}
PRE_SESSION = "installed hook, PreToolUse Write in a session step (allowed)"
FLOOR = "floor: python, json+subprocess+threading, the 3 git reads of an allow"
FLOOR_SCRIPT = """import json, subprocess, sys, threading
json.loads(sys.stdin.buffer.read())
run = lambda *a: subprocess.run(["git", *a], capture_output=True, check=True)
run("rev-parse", "--path-format=absolute", "--absolute-git-dir", "--git-common-dir",
    "--is-bare-repository", "--show-object-format", "--show-toplevel")
t = threading.Thread(target=run, args=("config", "-z", "--list", "--show-origin"))
t.start()
subprocess.run(["git", "cat-file", "--batch-check"], input=b"HEAD^{tree}\\n", check=True,
               capture_output=True)
t.join()
"""
PRE = "installed hook, PreToolUse Write (allowed)"
PRE_OWN = "the same, each call its own process (CORREX_RESIDENT=off)"
PRE_SESSION_OWN = "the same in a session step, each call its own process"
PRE_SCRIPT = "git-correx assess --hook claude-code, PreToolUse Write (allowed)"
PRE_BASH = "assess --hook claude-code, PreToolUse Bash (allowed)"
POST = "assess --hook claude-code, PostToolUse Bash (50k files)"


def payload(event: str, root: Path, tool: str, **tool_input: str) -> str:
    return json.dumps({"session_id": "bench", "transcript_path": "/tmp/t.jsonl",
                       "cwd": str(root), "permission_mode": "default",
                       "hook_event_name": event, "tool_name": tool, "tool_input": tool_input})


def with_profile(repo: Path) -> Path:
    if git(repo, "ls-tree", "HEAD", ".correx.toml").strip() == "":
        (repo / ".correx.toml").write_text(PROFILE)
        git(repo, "add", ".correx.toml")
        git(repo, *IDENTITY, "commit", "-q", "--no-verify", "-m", "profile", "--",
            ".correx.toml")
    git(repo, "config", "correx.stage", "implement")
    return repo


def small_repo(workdir: Path) -> Path:
    repo = workdir / "agent-small"
    if not (repo / ".git").exists():
        (repo / "src").mkdir(parents=True)
        (repo / "src" / "app.py").write_text("VALUE = 1\n")
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, *IDENTITY, "commit", "-q", "--no-verify", "-m", "initial")
    return with_profile(repo)


def session_repo(workdir: Path) -> Path:
    """A repository whose locked session has step S1 (writes src/a.py) started, through
    the CLI as an operator and an agent would do it."""
    repo = workdir / "agent-session"
    if (repo / ".git" / "bench-session-ready").exists():
        return repo
    subprocess.run(["rm", "-rf", str(repo)], check=True)
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "__init__.py").write_text("")
    (repo / ".correx.toml").write_text(SESSION_PROFILE)
    git(repo, "init", "-q")
    git(repo, "config", "user.name", "Bench Agent")
    git(repo, "config", "user.email", "agent@bench.example")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "initial")
    plan = repo / ".git" / "bench-plan.json"
    plan.write_text(json.dumps(SESSION_PLAN))
    for args in (["plan", "authorize", str(plan)], ["plan", "validate", str(plan)],
                 ["plan", "ground", str(plan)], ["verify", "--expect", "test", "--quiet"],
                 ["plan", "lock", str(plan), "--session", "bench"], ["step", "start", "S1"]):
        subprocess.run([*correx_script(), *args], cwd=repo, check=True,
                       stdout=subprocess.DEVNULL)
    (repo / ".git" / "bench-session-ready").write_text("")
    return repo


def hook(root: Path, body: str, name: str, *, launcher: str = "installed",
         own: bool = False) -> str:
    """The hook under bash, the payload from a file: the command `hooks install --agent
    claude-code` writes for this interpreter (its launcher hands the call to the resident
    process), or (`launcher="script"`) `git-correx assess --hook claude-code`; `own`: every
    call in its own process (CORREX_RESIDENT=off)."""
    path = root / ".git" / f"bench-{name}.json"
    path.write_text(body)
    command = (hook_command(sys.executable, "claude-code") if launcher == "installed" else
               f"{shlex.join(correx_script())} assess --hook claude-code")
    prefix = "export CORREX_RESIDENT=off; " if own else ""
    return f"{prefix}{{ {command}; }} < {shlex.quote(str(path))}"


def resident_cpu() -> float:
    """CPU seconds the resident process's children used so far (its reaped calls), 0 when
    none runs: the resident rows add this to the launcher's own CPU."""
    name = resident_name(sys.executable, package_dir(), start_settings(dict(os.environ)))
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(name)
        except OSError:
            return 0.0
        pid = int.from_bytes(probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)[:4],
                             sys.byteorder)
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def start_resident(root: Path, command: str) -> None:
    """One call starts the resident process; wait until it answers."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        subprocess.run(["bash", "-c", command], cwd=root, capture_output=True, check=False)
        name = resident_name(sys.executable, package_dir(), start_settings(dict(os.environ)))
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(name)
                return
            except OSError:
                time.sleep(0.2)
    raise RuntimeError("no resident process started")


def time_with_cpu(commands: Mapping[str, str], runs: int,
                  cwd: Path) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) seconds per run of each bash command, round-robin after one warm-up."""
    def once(command: str) -> tuple[float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        resident_before = resident_cpu()
        start = time.perf_counter()
        proc = subprocess.run(["bash", "-c", command], cwd=cwd, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise RuntimeError(f"{command} exited {proc.returncode}: {proc.stderr.decode()}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu + resident_cpu() - resident_before

    for command in commands.values():
        once(command)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(once(command))
    return times


def table(times: Mapping[str, list[tuple[float, float]]], baseline: str) -> str:
    base = median([wall for wall, _ in times[baseline]])
    lines = ["| command | median ms | min ms | max ms | ratio | median CPU ms |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, values in times.items():
        walls = [wall for wall, _ in values]
        cpu = median([cpu for _, cpu in values])
        lines.append(f"| {name} | {median(walls) * 1000:.1f} | {min(walls) * 1000:.1f} | "
                     f"{max(walls) * 1000:.1f} | {median(walls) / base:.2f} | "
                     f"{cpu * 1000:.0f} |")
    return "\n".join(lines)


def main() -> int:
    parser = standard_args(__doc__ or "", max_ratio=0)
    parser.add_argument("--max-seconds", type=float, default=0.1)
    parser.add_argument("--max-startups", type=float, default=3.0,
                        help="limit on an allowed write's median / `python -c pass`'s")
    args = parser.parse_args()
    load_before = os.getloadavg()
    small = small_repo(args.workdir)
    in_session = session_repo(args.workdir)
    python = shlex.quote(sys.executable)
    floor = small / ".git" / "bench-floor.py"
    floor.write_text(FLOOR_SCRIPT)
    pre_body = payload("PreToolUse", small, "Write", file_path="src/new.py", content="x = 1\n")
    session_body = payload("PreToolUse", in_session, "Write", file_path="src/a.py",
                           content="x = 1\n")
    start_resident(small, hook(small, pre_body, "pre"))
    pre = time_with_cpu({
        PRE: hook(small, pre_body, "pre"),
        "python -c pass": f"{python} -c pass",
        PRE_SESSION: hook(in_session, session_body, "pre-session"),
        PRE_OWN: hook(small, pre_body, "pre", own=True),
        PRE_SESSION_OWN: hook(in_session, session_body, "pre-session", own=True),
        PRE_SCRIPT: hook(small, pre_body, "pre", launcher="script"),
        FLOOR: f"{python} {shlex.quote(str(floor))} < "
               f"{shlex.quote(str(small / '.git' / 'bench-pre.json'))}",
        "assess --hook claude-code, PreToolUse Write (denied, recorded)": hook(
            small, payload("PreToolUse", small, "Write", file_path="docs/x.md",
                           content="x\n"), "deny"),
        "git status --porcelain (small)": "git status --porcelain >/dev/null",
        PRE_BASH: hook(small, payload("PreToolUse", small, "Bash",
                                      command="git status --short && pytest -q"), "bash"),
        "assess --hook claude-code, PreToolUse Bash operator command (denied)": hook(
            small, payload("PreToolUse", small, "Bash",
                           command="git correx plan authorize plan.toml"), "operator"),
    }, args.runs, cwd=small)
    large = with_profile(make_large_repo(args.workdir / f"agent-{args.files}",
                                         files=args.files))
    post = time_with_cpu({
        "git status --porcelain": "git status --porcelain >/dev/null",
        POST: hook(large, payload("PostToolUse", large, "Bash", command="make"), "post"),
        "git correx state": shlex.join([*correx_script(), "state"]) + " >/dev/null",
    }, args.runs, cwd=large)
    load_after = os.getloadavg()
    print(f"{args.runs} runs, git {git_version()}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs, load average before {load_before[0]:.2f}, "
          f"after {load_after[0]:.2f}\n")
    print("Small repository (1 file), PreToolUse:\n")
    print(table(pre, PRE))
    print(f"\n{args.files:,} files, 100 modified, 100 untracked, PostToolUse:\n")
    print(table(post, "git status --porcelain"))
    seconds = median([wall for wall, _ in pre[PRE]])
    post_ratio = median([w for w, _ in post[POST]]) / \
        median([w for w, _ in post["git status --porcelain"]])
    startup = median([wall for wall, _ in pre["python -c pass"]])
    startups = {name: median([wall for wall, _ in pre[name]]) / startup
                for name in (PRE, PRE_SESSION, PRE_OWN, PRE_SESSION_OWN, PRE_SCRIPT, FLOOR)}
    print(f"\nPreToolUse median {seconds:.3f} s (target {args.max_seconds} s); "
          f"PostToolUse = {post_ratio:.2f} x git status")
    print("In interpreter start-ups (`python -c pass`, target <= "
          f"{args.max_startups:g}): " + ", ".join(f"{name}: {ratio:.2f}"
                                                 for name, ratio in startups.items()))
    missed = seconds > args.max_seconds or max(startups[PRE], startups[PRE_SESSION]) > \
        args.max_startups
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
