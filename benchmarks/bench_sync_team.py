"""Many writers syncing one ledger at once through `git daemon` on loopback.

N clones of one served repository, each driven by its own process, all started together:
M times, record one verification (on a state tree of its own), then sync. Then one more
sync per clone, in turn, and a check that every clone holds all N x M events. Reported: the
wall time of each sync (p50, p95, max) and its CPU time (the sync and the git processes it
waited for: on a shared 2-core machine N writers at once mostly wait for a core, so wall
time grows with N), rounds per sync (mean, max), syncs that failed, total wall time, and
the load average.

By default each sync is `git correx sync --json` as a whole process, as users run it.
`--in-process` runs `sync_ledger` inside the writer's process instead (fetch and push are
still git processes talking to the daemon): for the 100 x 10 simulation, where 1,000
interpreter start-ups would otherwise be most of the work on a 2-core machine.
The daemon runs with `--max-connections=0`: its default of 32 would drop connections
beyond 32 from one address, which is a property of the test server, not of sync.

Usage: python benchmarks/bench_sync_team.py [--writers 64] [--syncs 3] [--in-process]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bench_sync import start_daemon
from common import correx_script, git

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def writer(path: Path, index: int, syncs: int, in_process: bool) -> None:
    """One clone's life: record, sync, M times; one JSON line per sync on stdout."""
    from bench_ledger import draft
    from common import in_process

    from gitcorrex.ledger import append_events
    from gitcorrex.ledger.provenance import current_provenance
    from gitcorrex.sync.ledger_sync import sync_ledger

    for number in range(syncs):
        repo = in_process(path)
        tree = state_tree(path, f"writer {index} state {number}\n")
        append_events(repo, [draft(index * 1000 + number, tree, None)],
                      now=T0 + timedelta(seconds=index * 1000 + number),
                      provenance=current_provenance(repo))
        start, cpu = time.perf_counter(), _cpu()
        if in_process:
            rounds, code = sync_ledger(in_process(path), remote="origin").rounds, 0
        else:
            proc = subprocess.run([*correx_script(), "sync", "--json"], cwd=path,
                                  capture_output=True, check=False)
            code = proc.returncode
            rounds = json.loads(proc.stdout)["rounds"] if code == 0 else 0
            if code:
                sys.stderr.write(proc.stderr.decode(errors="replace"))
        print(json.dumps({"seconds": time.perf_counter() - start, "cpu": _cpu() - cpu,
                          "rounds": rounds, "code": code}), flush=True)


def _cpu() -> float:
    """CPU seconds of this process and its waited-for children (git, a sync process)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def state_tree(path: Path, content: str) -> str:
    """A one-file tree of its own: the state key this writer verified."""
    blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=path, check=True,
                          capture_output=True, input=content.encode()).stdout.decode().strip()
    return subprocess.run(["git", "mktree"], cwd=path, check=True, capture_output=True,
                          input=f"100644 blob {blob}\tstate.txt\n".encode()
                          ).stdout.decode().strip()


def make_clones(root: Path, url: str, count: int) -> list[Path]:
    """A seed commit on the served repository, then `count` clones of it."""
    seed = root / "seed"
    git(root, "init", "-q", "seed")
    (seed / "README.md").write_text("shared\n")
    git(seed, "add", "-A")
    git(seed, "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "commit",
        "-q", "-m", "initial")
    git(seed, "push", "-q", url, "HEAD:refs/heads/main")
    clones = []
    for index in range(count):
        git(root, "clone", "-q", url, f"w{index}")
        git(root / f"w{index}", "config", "user.name", f"Writer {index}")
        git(root / f"w{index}", "config", "user.email", f"w{index}@example.invalid")
        clones.append(root / f"w{index}")
    return clones


def run_team(clones: list[Path], syncs: int, in_process: bool) -> list[dict[str, float]]:
    """Start every writer at once; every sync's JSON line."""
    here = Path(__file__).resolve().parent
    extra = ["--in-process"] if in_process else []
    procs = [subprocess.Popen([sys.executable, str(here / "bench_sync_team.py"), "--worker",
                               str(path), str(index), str(syncs), *extra],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for index, path in enumerate(clones)]
    lines = []
    for proc in procs:
        out, err = proc.communicate()
        if proc.returncode != 0:
            sys.stderr.write(err.decode(errors="replace"))
        lines += [json.loads(line) for line in out.decode().split("\n") if line]
    return lines


def count_events(path: Path) -> int:
    from common import in_process

    from gitcorrex.ledger import read_all

    return len(read_all(in_process(path)).entries)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(args: argparse.Namespace, lines: list[dict[str, float]], wall: float,
           complete: int) -> int:
    seconds = [line["seconds"] for line in lines]
    rounds = [line["rounds"] for line in lines if line["code"] == 0]
    failed = sum(1 for line in lines if line["code"] != 0)
    expected = args.writers * args.syncs
    mode = "in-process syncs" if args.in_process else "`git correx sync` processes"
    print(f"# {args.writers} writers x {args.syncs} syncs, {mode}, git daemon on loopback; "
          f"load {os.getloadavg()[0]:.2f} at the end")
    cpu = [line["cpu"] for line in lines]
    print("| syncs | failed | p50 s | p95 s | max s | CPU s per sync (p50) | mean rounds | "
          "max rounds | wall s | clones with all events |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {len(lines)}/{expected} | {failed} | {statistics.median(seconds):.2f} | "
          f"{percentile(seconds, 0.95):.2f} | {max(seconds):.2f} | "
          f"{statistics.median(cpu):.2f} | "
          f"{statistics.mean(rounds):.2f} | {max(rounds)} | {wall:.1f} | "
          f"{complete}/{args.writers} |")
    ok = len(lines) == expected and not failed and complete == args.writers
    return 0 if ok else 1


def main() -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=64)
    parser.add_argument("--syncs", type=int, default=3)
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--workdir", type=Path, default=here / "work")
    parser.add_argument("--worker", nargs=3, metavar=("CLONE", "INDEX", "SYNCS"))
    args = parser.parse_args()
    if args.worker:
        writer(Path(args.worker[0]), int(args.worker[1]), int(args.worker[2]), args.in_process)
        return 0
    root = args.workdir / "sync-team"
    shutil.rmtree(root, ignore_errors=True)
    (root / "served").mkdir(parents=True)
    git(root / "served", "init", "-q", "--bare", "ledger.git")
    daemon, port = start_daemon(root / "served")
    try:
        clones = make_clones(root, f"git://127.0.0.1:{port}/ledger.git", args.writers)
        start = time.perf_counter()
        lines = run_team(clones, args.syncs, args.in_process)
        wall = time.perf_counter() - start
        from common import in_process

        from gitcorrex.sync.ledger_sync import sync_ledger

        for path in clones:
            sync_ledger(in_process(path), remote="origin")
        expected = args.writers * args.syncs
        complete = sum(1 for path in clones if count_events(path) == expected)
    finally:
        daemon.terminate()
        daemon.wait()
    return report(args, lines, wall, complete)


if __name__ == "__main__":
    sys.exit(main())
