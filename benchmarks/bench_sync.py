"""`git correx sync` of 10,000 new events through `git daemon` on loopback.

Two clones of one served bare repository. Each run starts from the same refs:
- push: clone A holds 10,000 events (10,000 trees) the remote lacks; `git correx sync`
  fetches (nothing), pushes them;
- merge: the remote holds A's 10,000 events, a fresh clone B (new for every run, so it
  has none of A's objects) holds 100 of its own; `git correx sync` in B fetches the
  10,000, unites the two notes trees and pushes the merge.
Between runs the refs are put back (`update-ref`), so every run moves 10,000 events.
`--loose` records with packing off (`correx.packEvents 0`), as before the ledger was packed.
Target: each median <= 5 s.
Usage: python benchmarks/bench_sync.py [--events 10000] [--runs 5] [--loose]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bench_ledger import draft, make_trees
from common import correx_script, git, in_process, median

from gitcorrex.ledger import append_events
from gitcorrex.ledger.provenance import current_provenance

LIMIT = 5.0
REF = "refs/notes/correx"
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def start_daemon(base: Path) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    daemon = subprocess.Popen(
        ["git", "daemon", "--reuseaddr", "--enable=receive-pack", "--export-all",
         "--max-connections=0", f"--base-path={base}", f"--port={port}",
         "--listen=127.0.0.1", str(base)],
        stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return daemon, port
        except OSError:
            time.sleep(0.05)
    daemon.kill()
    raise RuntimeError("git daemon did not start")


def record(path: Path, count: int, offset: int) -> str:
    """`count` events on `count` new trees, 1,000 per append; the ledger tip."""
    repo = in_process(path)
    trees = make_trees(path, count + offset)[offset:]
    provenance = current_provenance(repo)
    for start in range(0, count, 1000):
        batch = [draft(i, tree, None) for i, tree in enumerate(trees[start:start + 1000], start)]
        append_events(repo, batch, now=T0 + timedelta(seconds=start + offset),
                      provenance=provenance)
    return git(path, "rev-parse", REF).strip()


def forget_ledger_refs(path: Path, under: str = "refs/notes/") -> None:
    """Delete every ref under `under` (the shared and the writer refs, or their tracking
    refs), so the next run pushes all events again."""
    refs = git(path, "for-each-ref", "--format=%(refname)", under).split()
    for ref in refs:
        git(path, "update-ref", "-d", ref)


def clone(root: Path, name: str, url: str) -> Path:
    """An empty repository with `origin` = the served one (the ledger is all it shares)."""
    git(root, "init", "-q", name)
    git(root / name, "remote", "add", "origin", url)
    return root / name


def timed_sync(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run([*correx_script(), "sync"], cwd=path, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--loose", action="store_true",
                        help="never pack the ledger (correx.packEvents 0): the old behaviour")
    parser.add_argument("--workdir", type=Path, default=here / "work")
    args = parser.parse_args()
    root = args.workdir / "sync"
    shutil.rmtree(root, ignore_errors=True)
    (root / "served").mkdir(parents=True)
    served = root / "served" / "ledger.git"
    git(root / "served", "init", "-q", "--bare", "ledger.git")
    daemon, port = start_daemon(root / "served")
    try:
        url = f"git://127.0.0.1:{port}/ledger.git"
        first = clone(root, "a", url)
        if args.loose:
            git(first, "config", "correx.packEvents", "0")
        tip_a = record(first, args.events, 0)
        pushes, merges = [], []
        for run in range(args.runs):
            forget_ledger_refs(served)
            forget_ledger_refs(root / "a", "refs/notes/remotes/")
            pushes.append(timed_sync(root / "a"))
            fresh = clone(root, f"b{run}", url)
            record(fresh, 100, args.events + 100 * run)
            git(served, "update-ref", REF, tip_a)
            merges.append(timed_sync(fresh))
            merged = git(fresh, "notes", "--ref", "correx", "list").count("\n")
            assert merged == args.events + 100, merged
    finally:
        daemon.terminate()
        daemon.wait()
    packing = "loose objects" if args.loose else "ledger packed every 1,000 events"
    print(f"# sync of {args.events} new events over git daemon on loopback ({packing}); "
          f"load {os.getloadavg()[0]:.2f}")
    print("| case | median s | min s | max s |\n|---|---:|---:|---:|")
    for name, times in (("push 10,000 new events", pushes),
                        ("fetch + merge 10,000 new events + push", merges)):
        print(f"| {name} | {median(times):.2f} | {min(times):.2f} | {max(times):.2f} |")
    worst = max(median(pushes), median(merges))
    print(f"\nslowest median {worst:.2f} s (target <= {LIMIT} s)")
    return 0 if worst <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
