"""`git correx state` against the git pipeline that defines a state key.

Measures whole processes on a generated repository (default 50,000 committed files, 100
modified, 100 untracked):

    baseline  cp .git/index X; GIT_INDEX_FILE=X git add -A; GIT_INDEX_FILE=X git write-tree
    correx    git-correx state   (the installed console script, else python -m gitcorrex)

Prints a Markdown table of medians and exits 1 when correx's median exceeds
`--max-ratio` (1.5) times the baseline's. Usage:

    python benchmarks/bench_state.py [--runs N] [--files N] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from common import (
    correx_script,
    git_version,
    make_large_repo,
    markdown_table,
    median,
    standard_args,
    time_commands,
)

BASELINE = "git pipeline (cp + add -A + write-tree)"
CORREX = "git-correx state"
PIPELINE = (
    "cp .git/index .git/bench-index && GIT_INDEX_FILE=.git/bench-index git add -A "
    "&& GIT_INDEX_FILE=.git/bench-index git write-tree"
)


def correx_command() -> list[str]:
    return [*correx_script(), "state"]


def parse_args() -> argparse.Namespace:
    return standard_args(__doc__ or "", max_ratio=1.5).parse_args()


def check_same_key(repo: Path) -> str:
    """Timing a command that gives a different answer would be meaningless."""
    outputs = [
        subprocess.run(cmd, cwd=repo, capture_output=True, check=True).stdout.strip()
        for cmd in (["bash", "-c", PIPELINE], correx_command())
    ]
    if outputs[0] != outputs[1]:
        raise SystemExit(f"keys differ: pipeline {outputs[0]!r} vs correx {outputs[1]!r}")
    return outputs[0].decode()


def commands_to_time() -> dict[str, list[str] | str]:
    """The two contenders, then rows that show where the difference goes."""
    correx = correx_command()
    return {
        BASELINE: PIPELINE,
        CORREX: correx,
        "python -m gitcorrex state": [sys.executable, "-m", "gitcorrex", "state"],
        "git-correx --version (start-up + CLI imports, no git)": [*correx[:-1], "--version"],
        "python -c pass (interpreter start-up)": [sys.executable, "-c", "pass"],
        "git status -s (for scale)": ["git", "--no-optional-locks", "status", "-s"],
    }


def main() -> int:
    args = parse_args()
    repo = make_large_repo(args.workdir / f"state-{args.files}", files=args.files)
    key = check_same_key(repo)
    times = time_commands(commands_to_time(), args.runs, cwd=repo)
    (repo / ".git" / "bench-index").unlink(missing_ok=True)
    ratio = median(times[CORREX]) / median(times[BASELINE])
    print(
        f"{args.files} files, {args.runs} runs, git {git_version()}, "
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; state key {key}\n"
    )
    print(markdown_table(times, BASELINE))
    print(f"\n{CORREX} = {' '.join(correx_command())}")
    print(f"{CORREX} / pipeline = {ratio:.2f} (limit {args.max_ratio})")
    return 0 if ratio <= args.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
