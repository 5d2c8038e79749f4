"""Hostile profiles: how fast `git correx verify` refuses each (exit 2), and what the caps
bound — the slowest profiles that still load, and shlex.split at the command-line cap.

    python bench_hostile_profiles.py --runs 5 [--max-seconds 1.0]

Whole processes, interpreter start-up included, medians of wall and CPU time (user +
system of the process tree). Exits 1 when a hostile case does not end in exit 2, or its
median wall time passes --max-seconds. The in-process rows time `parse_profile` on the two
worst profiles within the caps (256 KiB of 16 KiB command lines: one token each, the case
shlex is quadratic in, and single-letter arguments, the case its per-character loop pays
most for) and one shlex.split at the cap.
"""

from __future__ import annotations

import argparse
import resource
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from common import correx_script, git, load_average

from gitcorrex.model.profile_values import RUN_MAX_BYTES
from gitcorrex.profiles.limits import PROFILE_MAX_BYTES
from gitcorrex.profiles.load import parse_profile

HERE = Path(__file__).resolve().parent


def profile(extra: str = "", stages: str = "") -> bytes:
    return (f'version = 1\n[commands]\ntest = "true"\n{extra}\n[expectations]\n'
            f'full = ["test"]\n[defaults]\nexpectation = "full"\n'
            f'[stages.implement]\nwrites = ["/src/**"]\n{stages}').encode()


def at_the_caps(line: str) -> bytes:
    """As many `line` commands as fit in a profile of PROFILE_MAX_BYTES."""
    entries, size, index = [], len(profile()), 0
    while size + len(line) + 16 < PROFILE_MAX_BYTES:
        entries.append(f'c{index} = "{line}"')
        size, index = size + len(entries[-1]) + 1, index + 1
    return profile("\n".join(entries))


HOSTILE = {
    "arrays 1,000 deep": profile('d = { run = "true", x = ' + "[" * 1000 + "]" * 1000 + " }"),
    "inline tables 1,000 deep": profile('d = { run = "true", x = ' + "{a = " * 1000 + "1"
                                        + "}" * 1000 + " }"),
    "run of 200 KiB": profile('long = { run = "echo ' + "a" * 200_000 + '" }'),
    "run of 1 MB": profile('long = { run = "echo ' + "a" * 1_000_000 + '" }'),
    "NUL in run": profile('nul = { run = "echo a\\u0000b" }'),
    "UTF-8 BOM": b"\xef\xbb\xbf" + profile(),
}
LOADING = {
    "one-token lines at the caps": at_the_caps("a" * (RUN_MAX_BYTES - 2)),
    "one-letter arguments at the caps": at_the_caps("a " * (RUN_MAX_BYTES // 2 - 1)),
}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_verify(repo: Path, runs: int) -> tuple[int, list[float], list[float]]:
    walls, cpus, code = [], [], 0
    for _ in range(runs + 1):  # the first is a warm-up
        started, before = time.perf_counter(), children_cpu()
        code = subprocess.run([*correx_script(), "verify", "--quiet"], cwd=repo,
                              capture_output=True, check=False).returncode
        walls.append(time.perf_counter() - started)
        cpus.append(children_cpu() - before)
    return code, walls[1:], cpus[1:]


def time_in_process(work: Callable[[], object], runs: int) -> float:
    cpus = []
    for _ in range(runs):
        before = time.process_time()
        work()
        cpus.append(time.process_time() - before)
    return statistics.median(cpus)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-seconds", type=float, default=1.0)
    parser.add_argument("--workdir", type=Path, default=HERE / "work" / "hostile")
    args = parser.parse_args()
    print(f"load average: {load_average()}\n")
    print("| profile | exit | median wall ms | median CPU ms |\n|---|---:|---:|---:|")
    missed = False
    for index, (name, raw) in enumerate({**HOSTILE, **LOADING}.items()):
        repo = args.workdir / f"case{index}"
        if not (repo / ".git").exists():
            repo.mkdir(parents=True)
            git(repo, "init", "-q")
        (repo / ".correx.toml").write_bytes(raw)
        code, walls, cpus = time_verify(repo, args.runs)
        wall = statistics.median(walls)
        print(f"| {name} | {code} | {wall * 1000:.0f} | {statistics.median(cpus) * 1000:.0f} |")
        missed |= name in HOSTILE and (code != 2 or wall > args.max_seconds)
    print("\n| in process | median CPU ms |\n|---|---:|")
    for name, raw in LOADING.items():
        ms = time_in_process(lambda raw=raw: parse_profile(raw, source="p"), args.runs) * 1000
        print(f"| parse_profile, {name} | {ms:.0f} |")
    for name, line in (("one token", "a" * RUN_MAX_BYTES), ("one-letter arguments",
                                                            "a " * (RUN_MAX_BYTES // 2))):
        ms = time_in_process(lambda line=line: shlex.split(line), args.runs) * 1000
        print(f"| shlex.split of {RUN_MAX_BYTES // 1024} KiB, {name} | {ms:.1f} |")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
