"""The read paths of two installed versions side by side, interleaved on the same fixtures.

Issue 15 changed how events are typed and read; this proves no read path got slower. Each
interpreter must have git-correx installed (non-editable, `git-correx` beside it); the
fixtures are built once, by the existing benchmarks' builders, then every run times each
command with each version in turn (the order alternates per run, so drift hits both):

- `log` over 1,000 commits whose trees each have one verification (bench_log.py);
- `replay --json` and `replay` (text, which reads every line's payload and writer) over
  a 100,000-event ledger of real-shaped observations (bench_ledger.py);
- `session status ID --json` over a 5,000-event session (bench_session.py);
- `verify --quiet --expect noop` whose only command is `true` (bench_verify.py).

`log` and `session status` keep their folded results in `<git dir>/correx/folds/`; each is
timed warm (as an orchestrator polling meets it) and cold (that directory removed before
every run, so the fold itself runs), each version on its own copy of the fixture (a stored
record of one version may be stale or unreadable to the other). Prints wall medians with
min-max spread and CPU medians (user + system of the whole process tree, which a loaded
machine moves far less), in ms, and the load average before and after. Exits 1 when both
medians of `--after` (wall and CPU) exceed `--before`'s by more than `--tolerance`
(default 5 %). Usage:

    python benchmarks/bench_read_paths_compare.py --before /tmp/before-venv/bin/python \\
        --after /tmp/after-venv/bin/python [--runs 7] [--files 50000] [--only session]

`--only WORD` (repeatable) times just the rows whose name contains a word, and builds only
their fixtures: re-timing one row does not wait for the 100,000-event ledger or the
50,000-file repository.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench_ledger import build_ledger
from bench_log import build_history, record_verifications
from bench_session import SESSION
from bench_session import build as build_session
from bench_verify import PROFILE
from common import load_average, make_large_repo, median


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="python of the old install")
    parser.add_argument("--after", type=Path, required=True, help="python of the new install")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--session-events", type=int, default=5000)
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--tolerance", type=float, default=0.05)
    parser.add_argument("--workdir", type=Path, default=here / "work")
    parser.add_argument("--only", action="append", default=[], metavar="WORD",
                        help="time only the rows whose name contains WORD (repeatable)")
    return parser.parse_args()


def script_of(python: Path) -> list[str]:
    """The console script installed beside `python` (exit 2 when there is none)."""
    beside = python.parent / "git-correx"
    if not beside.exists():
        raise SystemExit(f"{beside} does not exist: pip install git-correx into {python.parent}")
    return [str(beside)]


def fixtures(args: argparse.Namespace, needed: set[str]) -> dict[str, Path]:
    """The fixtures of the `needed` rows, built once (the ledger and the large repository
    are reused)."""
    work, where = args.workdir, {}
    if "log" in needed:
        where["log"] = work / f"compare-log-{args.commits}"
        record_verifications(where["log"], build_history(where["log"], args.commits))
    if "replay" in needed:
        where["replay"] = build_ledger(work, args.events)
    if "session" in needed:
        where["session"] = work / f"compare-session-{args.session_events}"
        build_session(where["session"], args.session_events)
    if "verify" in needed:
        where["verify"] = make_large_repo(work / f"verify-{args.files}", files=args.files)
        (where["verify"] / ".correx.toml").write_text(PROFILE)
    return where


# (name, fixture, arguments, cold): what is timed.
CASES: list[tuple[str, str, list[str], bool]] = [
    ("log (warm)", "log", ["log", "--all"], False),
    ("log (cold fold)", "log", ["log", "--all"], True),
    ("replay --json", "replay", ["replay", "--json"], False),
    ("replay (text)", "replay", ["replay"], False),
    ("session status (warm)", "session", ["session", "status", SESSION, "--json"], False),
    ("session status (cold fold)", "session", ["session", "status", SESSION, "--json"], True),
    ("verify true", "verify", ["verify", "--quiet", "--expect", "noop"], False),
]


def selected(only: list[str]) -> list[tuple[str, str, list[str], bool]]:
    """The rows named by `--only` (all without it); exit 2 when a word matches none."""
    rows = [case for case in CASES if not only or any(word in case[0] for word in only)]
    if not rows:
        raise SystemExit(f"--only {only}: no row matches; rows: {[c[0] for c in CASES]}")
    return rows


# Fixtures whose commands keep folded results in `<git dir>/correx/folds/`: each version
# reads its own copy, so a warm run times that version's stored fold (one version's
# record can be another's stale or unreadable format) and never the other's.
FOLDING = frozenset({"log", "session"})


def cases(rows: list[tuple[str, str, list[str], bool]], where: dict[str, Path],
          versions: list[str]) -> list[tuple[str, dict[str, Path], list[str], bool]]:
    """(name, repository per version, arguments, cold) of each selected row."""
    repos = {fixture: {version: _own_copy(path, version) if fixture in FOLDING else path
                       for version in versions} for fixture, path in where.items()}
    return [(name, repos[fixture], argv, cold) for name, fixture, argv, cold in rows]


def _own_copy(repo: Path, version: str) -> Path:
    copy = repo.with_name(f"{repo.name}-{version}")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(repo, copy, symlinks=True)
    return copy


def run_once(argv: list[str], cwd: Path, cold: bool) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process; a failure stops the benchmark."""
    if cold:
        shutil.rmtree(cwd / ".git" / "correx" / "folds", ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if proc.returncode not in (0, 1):  # log/status exit 1 on a failing tree: still timed
        raise RuntimeError(f"{argv} in {cwd} exited {proc.returncode}: {proc.stderr.decode()}")
    return elapsed, cpu


def measure(versions: dict[str, list[str]], runs: int,
            plan: list[tuple[str, dict[str, Path], list[str], bool]]
            ) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """Interleaved: per run, per case, each version once (order alternating by run)."""
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    names = list(versions)
    for _name, repos, args, cold in plan:  # one warm-up each
        for version in names:
            run_once([*versions[version], *args], repos[version], cold)
    for run in range(runs):
        order = names if run % 2 == 0 else names[::-1]
        for name, repos, args, cold in plan:
            for version in order:
                sample = run_once([*versions[version], *args], repos[version], cold)
                times.setdefault((name, version), []).append(sample)
    return times


def report(times: dict[tuple[str, str], list[tuple[float, float]]], cases_: list[str],
           runs: int, tolerance: float, say: Callable[[str], None]) -> bool:
    """The table; False when an `after` median (wall or CPU) is slower than `before`'s
    beyond tolerance."""
    say("| command | before wall ms (min-max) | after wall ms (min-max) | after/before "
        "| before CPU ms | after CPU ms | after/before CPU |")
    say("|---|---:|---:|---:|---:|---:|---:|")
    ok = True
    for name in cases_:
        before, after = times[(name, "before")], times[(name, "after")]
        walls = [[wall for wall, _ in samples] for samples in (before, after)]
        cpus = [median([cpu for _, cpu in samples]) for samples in (before, after)]
        ratio, cpu_ratio = median(walls[1]) / median(walls[0]), cpus[1] / max(cpus[0], 1e-9)
        ok = ok and min(ratio, cpu_ratio) <= 1 + tolerance
        say(f"| {name} | {_cell(walls[0])} | {_cell(walls[1])} | {ratio:.2f} "
            f"| {cpus[0] * 1000:.0f} | {cpus[1] * 1000:.0f} | {cpu_ratio:.2f} |")
    say(f"\nmedian of {runs} interleaved runs per cell; tolerance {tolerance:.0%}")
    return ok


def _cell(values: list[float]) -> str:
    return f"{median(values) * 1000:.0f} ({min(values) * 1000:.0f}-{max(values) * 1000:.0f})"


def main() -> int:
    args = parse_args()
    versions = {"before": script_of(args.before), "after": script_of(args.after)}
    rows = selected(args.only)
    plan = cases(rows, fixtures(args, {fixture for _, fixture, *_ in rows}), list(versions))
    print(f"load average before: {load_average()} ({os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]})")
    # warm cases first, cold ones after: a cold run empties the fold store, which would turn
    # the next warm run of the other version cold (versions may keep different tables)
    warm, cold = [c for c in plan if not c[3]], [c for c in plan if c[3]]
    times = {**measure(versions, args.runs, warm), **measure(versions, args.runs, cold)}
    print(f"load average after: {load_average()}\n")
    ok = report(times, [name for name, *_ in plan], args.runs, args.tolerance, print)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
