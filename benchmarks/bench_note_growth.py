"""Does an append cost more as its note grows? One tree's note holding N events (default
5,000 verification observations, ~1 KB lines) against an empty one.

For each engine (git's plumbing, as a plain `verify` writes; libgit2, once a process opened
it), M appends (default 200, one event and one compare-and-swap notes commit each) go to
the long note and M to a note on a fresh tree, interleaved in rounds of 10 so load moves
both alike. Wall and CPU (this process and its git children) per append, mean and median
over the rounds; the ratio long/empty is the figure (limit 1.5). With `--session` every
event also belongs to a session (the long note's session holds the N events; the empty
one is a new session), so each append also takes the session's next `seq` and stores its
fold. Usage:

    python benchmarks/bench_note_growth.py [--events 5000] [--appends 200] [--session]

Run it against another checkout with `PYTHONPATH=/path/to/other python benchmarks/...`.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from datetime import timedelta
from pathlib import Path
from statistics import mean
from typing import NamedTuple

from bench_ledger import T0, draft, fresh_repo, make_trees
from common import git, in_process, median

from gitcorrex.git.repository import Repository, discover
from gitcorrex.ledger import append_events
from gitcorrex.ledger.provenance import current_provenance

LIMIT = 1.5
ROUND = 10


class PerAppend(NamedTuple):
    wall_ms: float
    cpu_ms: float


def _cpu() -> float:
    mine = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def build(path: Path, events: int, session: str | None) -> tuple[str, list[str]]:
    """A ledger whose first tree's note holds `events` events (500 per commit); the other
    trees are fresh."""
    fresh_repo(path)
    trees = make_trees(path, 2)
    repo = in_process(path)
    provenance = current_provenance(repo)
    for start in range(0, events, 500):
        batch = [draft(i, trees[0], session) for i in range(start, min(events, start + 500))]
        append_events(repo, batch, now=T0 + timedelta(seconds=start), provenance=provenance)
    return trees[0], trees[1:]


def rounds(repo: Repository, long_tree: str, empty_tree: str, appends: int,
           start: int, sessions: dict[str, str | None]) -> dict[str, list[PerAppend]]:
    """Rounds of ROUND appends to each note, alternating; per-append cost of each round."""
    provenance = current_provenance(repo)
    found: dict[str, list[PerAppend]] = {"long": [], "empty": []}
    number = start
    for _ in range(appends // ROUND):
        for name, tree in (("long", long_tree), ("empty", empty_tree)):
            cpu, wall = _cpu(), time.perf_counter()
            for _ in range(ROUND):
                number += 1
                append_events(repo, [draft(number, tree, sessions[name])],
                              now=T0 + timedelta(days=1, seconds=number),
                              provenance=provenance)
            found[name].append(PerAppend((time.perf_counter() - wall) * 1000 / ROUND,
                                         (_cpu() - cpu) * 1000 / ROUND))
    return found


def main() -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--appends", type=int, default=200)
    parser.add_argument("--workdir", type=Path, default=here / "work")
    parser.add_argument("--session", action="store_true")
    args = parser.parse_args()
    import gitcorrex

    print(f"gitcorrex from {Path(gitcorrex.__file__).parent}; git "
          f"{git(Path.cwd(), '--version').split()[-1]}; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.1f} at the start\n")
    print("| engine | note | wall ms per append (mean / median) | CPU ms (mean / median) "
          "| ratio long/empty (CPU mean) |")
    print("|---|---|---:|---:|---:|")
    met = True
    for engine in ("plumbing", "libgit2"):
        sessions: dict[str, str | None] = ({"long": "long-session", "empty": "new-session"}
                                           if args.session else {"long": None, "empty": None})
        path = args.workdir / f"note-growth-{engine}"
        long_tree, fresh = build(path, args.events, sessions["long"])
        repo = in_process(path) if engine == "libgit2" else discover(path)
        found = rounds(repo, long_tree, fresh[0], args.appends, args.events, sessions)
        cpu = {name: mean(t.cpu_ms for t in values) for name, values in found.items()}
        for name, values in found.items():
            ratio = cpu["long"] / cpu["empty"]
            shown = f"{ratio:.2f}" if name == "long" else ""
            print(f"| {engine} | {name} ({args.events if name == 'long' else 0:,}+ events) "
                  f"| {mean(t.wall_ms for t in values):.1f} / "
                  f"{median([t.wall_ms for t in values]):.1f} "
                  f"| {cpu[name]:.1f} / {median([t.cpu_ms for t in values]):.1f} | {shown} |")
        met = met and cpu["long"] / cpu["empty"] <= LIMIT
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end; limit {LIMIT}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
