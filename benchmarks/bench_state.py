"""`git correx state` against `git status --porcelain` on the same repository, in one run.

Measures whole processes on a generated repository (default 50,000 committed files, 100
modified, 100 untracked):

    baseline  git status --porcelain
    correx    git-correx state   (the installed console script, else python -m gitcorrex)

and, to show where the difference goes, the definition's pipeline on a copy of the index
(what a state key cost before the persistent index), the same two git commands on a kept
index, the `git status` a key runs on a kept index now (state_scan.py), and interpreter
start-up. Prints wall and CPU medians (with min/max) and the load
average, and exits 1 when correx's median exceeds `--max-ratio` (1.0: issue 30) times git status's.
Usage:

    python benchmarks/bench_state.py [--runs N] [--files N] [--workdir DIR] [--against SCRIPT]

`--against SCRIPT` adds another build's console script (e.g. main installed in its own
virtualenv) as a row, timed interleaved with the others: an A/B in one run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from common import (
    correx_script,
    cpu_table,
    git_version,
    load_average,
    make_large_repo,
    markdown_table,
    median,
    standard_args,
    time_commands_cpu,
)

BASELINE = "git status --porcelain"
CORREX = "git-correx state"
PIPELINE = (
    "cp .git/index .git/bench-index && GIT_INDEX_FILE=.git/bench-index git add -A "
    "&& GIT_INDEX_FILE=.git/bench-index git write-tree"
)
KEPT = (
    "GIT_INDEX_FILE=.git/bench-kept git -c core.untrackedCache=true add -A "
    "&& GIT_INDEX_FILE=.git/bench-kept git write-tree"
)
KEPT_STATUS = (
    "GIT_INDEX_FILE=.git/bench-kept git -c core.untrackedCache=true status --porcelain=v2 -z "
    "--untracked-files=normal --no-renames --ignore-submodules=dirty"
)


def correx_command() -> list[str]:
    return [*correx_script(), "state"]


def parse_args() -> argparse.Namespace:
    parser = standard_args(__doc__ or "", max_ratio=1.0)
    parser.add_argument("--against", type=Path, help="another build's git-correx script")
    return parser.parse_args()


def check_same_key(repo: Path) -> str:
    """Timing a command that gives a different answer would be meaningless. The user's
    index is left as a default configuration has it (no untracked cache: an experiment
    that ran `git -c core.untrackedCache=true status` would speed up the baseline)."""
    subprocess.run(["git", "update-index", "--no-untracked-cache"], cwd=repo, check=True,
                   capture_output=True)
    subprocess.run(["cp", "-p", ".git/index", ".git/bench-kept"], cwd=repo, check=True)
    outputs = [
        subprocess.run(cmd, cwd=repo, capture_output=True, check=True).stdout.strip()
        for cmd in (["bash", "-c", PIPELINE], ["bash", "-c", KEPT], correx_command())
    ]
    if len(set(outputs)) != 1:
        raise SystemExit(f"keys differ: pipeline, kept index, correx: {outputs!r}")
    return outputs[0].decode()


def commands_to_time(against: Path | None = None) -> dict[str, list[str] | str]:
    """The two contenders (and `against`'s state), then rows that show where the
    difference goes."""
    correx = correx_command()
    other: dict[str, list[str] | str] = {f"{against} state": [str(against), "state"]
                                         } if against else {}
    return {
        BASELINE: ["git", "status", "--porcelain"],
        CORREX: correx,
        **other,
        "pipeline on a copy of the index (cp + add -A + write-tree)": PIPELINE,
        "add -A + write-tree on a kept index": KEPT,
        "status on a kept index with the untracked cache (a key, nothing changed)": KEPT_STATUS,
        "floor: git diff-files (the stat pass over every tracked file alone)":
            "GIT_INDEX_FILE=.git/bench-kept git diff-files --quiet; true",
        "git-correx --version (start-up + CLI imports, no git)": [*correx[:-1], "--version"],
        "python -c pass (interpreter start-up)": [sys.executable, "-c", "pass"],
    }


def main() -> int:
    args = parse_args()
    repo = make_large_repo(args.workdir / f"state-{args.files}", files=args.files)
    key = check_same_key(repo)
    load_before = load_average()
    times, cpu = time_commands_cpu(commands_to_time(args.against), args.runs, cwd=repo)
    for name in ("bench-index", "bench-kept"):
        (repo / ".git" / name).unlink(missing_ok=True)
    ratio = median(times[CORREX]) / median(times[BASELINE])
    print(
        f"{args.files} files, {args.runs} runs, git {git_version()}, "
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; state key {key}\n"
        f"load average before {load_before}, after {load_average()}\n"
    )
    print(markdown_table(times, BASELINE))
    print()
    print(cpu_table(cpu))
    print(f"\n{CORREX} = {' '.join(correx_command())}")
    print(f"{CORREX} / {BASELINE} = {ratio:.2f} (limit {args.max_ratio})")
    return 0 if ratio <= args.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
