"""Where one append's time goes: N appends (default 500), each its own compare-and-swap
notes commit, profiled in process and grouped by what they do.

Groups (cProfile's own time of each call, so nothing is counted twice):
- loose object writes: libgit2's `create_blob`, `TreeBuilder.write`, `create_commit`
  (a session event writes 4: the note blob, its fanout tree, the notes root tree and the
  commit; an event's first anchor writes 2 more trees);
- ref update: the compare-and-swap of the ledger ref (lock, reflog line, rename);
- reads: the tip, the notes tree and the old note (libgit2 lookups);
- event building: canonical JSON, ids, models (pydantic);
- the rest (Python glue, config lookups).
Also prints the uninstrumented wall and CPU time per append. Usage:

    python benchmarks/bench_append_profile.py [--events 500]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import shutil
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import git, in_process, load_average
from raw_events import raw_draft

from gitcorrex.ledger import EventDraft, append_events
from gitcorrex.ledger.provenance import current_provenance

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
GROUPS = {
    "loose object writes (blob, trees, commit)": ("create_blob", "TreeBuilder' objects>",
                                                  "'write' of '_pygit2.TreeBuilder",
                                                  "create_commit"),
    "ref update (compare-and-swap, reflog)": ("set_target", "create_ref_if_absent"),
    "reads (tip, notes tree, old note)": ("'get' of", "lookup_reference", "references",
                                          "__getitem__", "revparse", "'read' of"),
    "event building (JSON, ids, models)": ("pydantic", "canonical", "json", "hashlib",
                                           "model_", "validate"),
}


def drafts(count: int, tree: str) -> list[list[EventDraft]]:
    """`count` single-event batches on one session (a session's steady state)."""
    return [[raw_draft(kind="session_resumed", subjects=(), session="bench-append",
                        stage=None, step=None, state_key=tree,
                        fields={"reason": f"resume {i}", "revision": i})]
            for i in range(count)]


def run(root: Path, batches: list[list[EventDraft]]) -> tuple[float, float]:
    repo = in_process(root)
    provenance = current_provenance(repo)
    wall, cpu = time.perf_counter(), _cpu()
    for i, batch in enumerate(batches):
        append_events(repo, batch, now=T0 + timedelta(seconds=i), provenance=provenance)
    return time.perf_counter() - wall, _cpu() - cpu


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def fresh(root: Path) -> str:
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    git(root, "init", "-q")
    (root / "a.txt").write_text("a\n")
    git(root, "add", "-A")
    git(root, "-c", "user.name=B", "-c", "user.email=b@example.invalid", "commit", "-q",
        "-m", "init")
    return git(root, "rev-parse", "HEAD^{tree}").strip()


def top_rest(stats: pstats.Stats, count: int) -> list[tuple[float, str]]:
    """The costliest calls no group claimed (to keep the groups honest)."""
    rest = []
    for (filename, line, function), (_cc, _nc, tottime, _ct, _callers) in \
            stats.stats.items():  # type: ignore[attr-defined]
        label = f"{filename}:{function}"
        if not any(k in label for keys in GROUPS.values() for k in keys):
            rest.append((tottime, f"{Path(filename).name}:{line}:{function}"))
    return sorted(rest, reverse=True)[:count]


def grouped(stats: pstats.Stats) -> dict[str, float]:
    totals = {name: 0.0 for name in [*GROUPS, "the rest"]}
    for (filename, _line, function), (_cc, _nc, tottime, _ct, _callers) in \
            stats.stats.items():  # type: ignore[attr-defined]
        label = f"{filename}:{function}"
        group = next((g for g, keys in GROUPS.items() if any(k in label for k in keys)),
                     "the rest")
        totals[group] += tottime
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--prefill", type=int, default=20,
                        help="events already in the session before the timed appends")
    parser.add_argument("--workdir", type=Path,
                        default=Path(__file__).resolve().parent / "work")
    args = parser.parse_args()
    root = args.workdir / "append-profile"
    load = load_average()
    tree = fresh(root)
    run(root, drafts(args.prefill, tree))  # the session exists, its note has lines
    wall, cpu = run(root, drafts(args.events, tree))
    profiler = cProfile.Profile()
    profiler.enable()
    run(root, drafts(args.events, tree))
    profiler.disable()
    totals = grouped(pstats.Stats(profiler))
    whole = sum(totals.values())
    objects = git(root, "count-objects", "-v")
    print(f"{args.events} appends to a session of {args.prefill}+ events, one notes commit "
          f"each; load average {load} → "
          f"{load_average()}\n")
    print(f"uninstrumented: {wall / args.events * 1000:.2f} ms wall, "
          f"{cpu / args.events * 1000:.2f} ms CPU per append\n")
    print("| group | share of profiled time | ms per append (profiled) |\n|---|---:|---:|")
    for name, value in totals.items():
        print(f"| {name} | {value / whole:.0%} | {value / args.events * 1000:.2f} |")
    print("\ncostliest of the rest (ms per append, profiled):")
    for tottime, label in top_rest(pstats.Stats(profiler), 12):
        print(f"  {tottime / args.events * 1000:.3f}  {label}")
    print(f"\nobject store after {2 * args.events + args.prefill} appends:\n{objects}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
