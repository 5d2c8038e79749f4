"""Writers racing on one ledger: how many compare-and-swap attempts an append needs.

N processes (default 8) each append M events (default 25) to one repository's ledger through
the one writer (`append_lines`), every event in a session, so each attempt reads the ledger
for the session's next `seq` between reading the tip and moving it: the widest window a
real `verify --session` has. Optional busy loops (`--load`) stand in for a shared CI machine.

Reported: wall time, failed compare-and-swaps in all, and the worst number of attempts one
append needed. The writer gives up after 60 attempts (exit 3, nothing recorded), so the worst
case is the number that decides whether a loaded machine loses a verification. Usage:

    python benchmarks/bench_contention.py [--workers 8] [--appends 25] [--load 2] [--runs 3]
                                          [--race] [--attempts 60]

`--race` measures the writer without its queue (compare-and-swap alone, the design before
`git/writer_queue.py`); `--attempts` changes the retry budget, the other design tried.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import git, median

WORKER = r"""
import json, sys
from datetime import datetime, timezone
from pathlib import Path
import gitcorrex.git as face
from gitcorrex.git.repository import discover
from gitcorrex.ledger.append import Draft, append_lines
from gitcorrex.ledger.provenance import current_provenance

repo = discover(Path(sys.argv[1]))
tree = sys.argv[2]
failed = [0]
per_append = []
swap = face.swap_ref

def counting(*args, **kwargs):
    moved = swap(*args, **kwargs)
    if not moved:
        failed[0] += 1
    return moved

face.swap_ref = counting
if sys.argv[5] == "race":  # the design before the queue, for comparison
    from contextlib import nullcontext
    face.writers_turn = lambda repo: nullcontext(False)
provenance = current_provenance(repo)
for index in range(int(sys.argv[4])):
    before = failed[0]
    fields = {"path": f"p{index}", "source": "profile_requires", "named_by": "bench",
              "attempts": 1, "blocks": []}
    draft = Draft("workspace_precondition_failed", fields, (tree,), session=sys.argv[3])
    append_lines(repo, [draft], now=datetime.now(timezone.utc), provenance=provenance,
                 max_attempts=int(sys.argv[6]))
    per_append.append(failed[0] - before + 1)
print(json.dumps({"failed": failed[0], "worst": max(per_append)}))
"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--appends", type=int, default=25)
    parser.add_argument("--sessions", type=int, default=4)
    parser.add_argument("--load", type=int, default=0, help="busy loops beside the writers")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--race", action="store_true",
                        help="writers do not queue (compare-and-swap alone, as before)")
    parser.add_argument("--attempts", type=int, default=60, help="the writer's retry budget")
    return parser.parse_args()


def one_run(args: argparse.Namespace, root: Path) -> dict[str, float]:
    repo = root / "repo"
    git(root, "init", "-q", str(repo))
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    tree = git(repo, "write-tree").strip()
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.load)]
    try:
        start = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(repo), tree,
                                   f"s{index % args.sessions}", str(args.appends),
                                   "race" if args.race else "queue", str(args.attempts)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for index in range(args.workers)]
        results = [proc.communicate() for proc in procs]
        wall = time.perf_counter() - start
    finally:
        for busy in load:
            busy.kill()
            busy.wait()
    ended = list(zip(procs, results, strict=True))
    lost = [err.decode() for proc, (_, err) in ended if proc.returncode != 0]
    counts = [json.loads(out) for proc, (out, _) in ended if proc.returncode == 0]
    return {"wall": wall, "failed": sum(c["failed"] for c in counts),
            "worst": max((c["worst"] for c in counts), default=0), "lost": len(lost)}


def main() -> int:
    args = parse_args()
    runs = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as temp:
            runs.append(one_run(args, Path(temp)))
    total = args.workers * args.appends
    print("| writers x appends | design | load | wall (median) | failed CAS per append (median) "
          "| worst attempts (max) | writers lost |")
    print("|---|---|---|---|---|---|---|")
    design = f"{'race' if args.race else 'queue'}, {args.attempts} attempts"
    print(f"| {args.workers} x {args.appends} | {design} | {args.load} busy | "
          f"{median([r['wall'] for r in runs]):.1f} s | "
          f"{median([r['failed'] for r in runs]) / total:.2f} | "
          f"{max(r['worst'] for r in runs):.0f} | {sum(r['lost'] for r in runs):.0f} |")
    return 1 if any(r["lost"] for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
