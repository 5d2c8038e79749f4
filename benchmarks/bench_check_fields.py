"""What `replay --check-fields` costs: `replay --json` with and without it, whole processes.

Two ledgers of N events (default 100,000) laid out as bench_ledger.py lays them (10 events
per tree, half of them also in a 200-event session, so most events sit in two notes):

- `unfit`: bench_ledger.py's own ledger, whose hand-picked fields do not fit
  `VerificationFields` — every line is a problem, pydantic's slow path (it collects every
  error), and 100,000 problems are printed;
- `fit`: observations as `verify` records them (bench_log.observation) — every payload is
  read and none is a problem.

Prints wall and CPU medians (one warm-up each, runs interleaved) and events per second of
the whole process; no target (the flag is an opt-in), so it always exits 0. Usage:

    python benchmarks/bench_check_fields.py [--events 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
from datetime import timedelta
from pathlib import Path

from bench_ledger import (
    T0,
    Timing,
    build_ledger,
    correx_command,
    fresh_repo,
    make_trees,
    middle,
    run_quietly,
    timed,
)
from bench_log import observation

from gitcorrex.git.notes import write_blob
from gitcorrex.git.repository import discover_in_process
from gitcorrex.ledger import EventDraft, append_events
from gitcorrex.ledger.provenance import current_provenance


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=here / "work")
    return parser.parse_args()


def build_fit_ledger(workdir: Path, events: int) -> Path:
    """`events` observations whose fields fit their class, 1,000 per notes commit (reused)."""
    path = workdir / f"ledger-fit-{events}"
    if (path / ".git" / "bench-ledger-complete").exists():
        return path
    fresh_repo(path)
    trees = make_trees(path, events // 10)
    repo = discover_in_process(path)
    provenance = current_provenance(repo)
    profile = write_blob(repo, b'version = 1\n[commands]\ntest = "python -m pytest"\n')
    for start in range(0, events, 1000):
        drafts = [EventDraft(observation(i, trees[i // 10], profile), (trees[i // 10],),
                             session=f"s{i // 200}" if i % 2 == 0 else None, stage="build",
                             state_key=trees[i // 10])
                  for i in range(start, min(events, start + 1000))]
        append_events(repo, drafts, now=T0 + timedelta(seconds=start), provenance=provenance)
    (path / ".git" / "bench-ledger-complete").write_text("done\n")
    return path


def bench(ledgers: dict[str, Path], runs: int) -> dict[tuple[str, str], Timing]:
    """Medians per (ledger, variant), the variants of one ledger run in turn."""
    variants = {"replay --json": [], "replay --json --check-fields": ["--check-fields"]}
    timings: dict[tuple[str, str], list[Timing]] = {}
    for name, path in ledgers.items():
        for extra in variants.values():
            run_quietly([*correx_command(), "replay", "--json", *extra], path)  # warm-up
        for _ in range(runs):
            for variant, extra in variants.items():
                argv = [*correx_command(), "replay", "--json", *extra]
                timings.setdefault((name, variant), []).append(
                    timed(lambda argv=argv, path=path: run_quietly(argv, path)))
    return {key: middle(values) for key, values in timings.items()}


def main() -> int:
    args = parse_args()
    ledgers = {"unfit": build_ledger(args.workdir, args.events),
               "fit": build_fit_ledger(args.workdir, args.events)}
    load_before = os.getloadavg()
    results = bench(ledgers, args.runs)
    print(f"\n{args.events:,} events, {args.runs} runs, load average before "
          f"{load_before[0]:.1f} after {os.getloadavg()[0]:.1f}\n")
    print("| ledger | command | wall s | CPU s | events/s (wall) | events/s (CPU) |")
    print("|---|---|---:|---:|---:|---:|")
    for (name, variant), t in results.items():
        print(f"| {name} | `{variant}` | {t.wall:.2f} | {t.cpu:.2f} | "
              f"{args.events / t.wall:,.0f} | {args.events / t.cpu:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
