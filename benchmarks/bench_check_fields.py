"""What `replay --check-fields` costs: `replay --json` with and without it, whole processes.

Two ledgers of N events (default 100,000) laid out as bench_ledger.py lays them (10 events
per tree, half of them also in a 200-event session, so most events sit in two notes):

- `fit`: bench_ledger.py's own ledger of real observations — every payload is read and
  none is a problem;
- `unfit`: the same observations each without its `reason` (as the benchmark's older,
  hand-made fields were) — every line is a problem, pydantic's slow path (it collects
  every error), and 100,000 problems are printed.

Prints wall and CPU medians (one warm-up each, runs interleaved) and events per second of
the whole process; no target (the flag is an opt-in), so it always exits 0. Usage:

    python benchmarks/bench_check_fields.py [--events 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from bench_ledger import Timing, build_ledger, correx_command, fields, middle, run_quietly, timed


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=here / "work")
    return parser.parse_args()


def unfit_fields(i: int) -> dict[str, object]:
    """The i-th real observation's fields without `reason`: a required field missing."""
    return {key: value for key, value in fields(i).items() if key != "reason"}


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
    ledgers = {"unfit": build_ledger(args.workdir, args.events, name="ledger-unfit",
                                     fields_of=unfit_fields),
               "fit": build_ledger(args.workdir, args.events)}
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
