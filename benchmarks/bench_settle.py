"""`git correx verify` inside an active step (the whole settlement) in units of `git status`.

On a generated repository (default 50,000 committed files, 100 modified, 100 untracked) a
one-step plan is locked on a verified state and its step started. The stage runs a static
analysis gate (`true`) and the build expectation `noop` (`true`); the step's own checks
add `nope` (`false`), so every settlement runs all three parts and fails at the last:

    write evidence   tree diff of the step's baseline and the current state key
    gates            static analysis `true` (a clean result is reused only across
                     verifies of one key, and each run records a new failure, so it runs)
    commands         noop, nope → step_failed (the step stays active for the next run)

Times whole processes side by side in one run: `git status`, `git-correx state` (one scan)
and the settlement. Prints a Markdown table with ratios to `git status`, the CPU per
command and the machine's load. The target (<= 6x) is the plain verify's (<= 3x overhead
over the command) plus the gate's own process and a second observation-sized append.
Usage:

    python benchmarks/bench_settle.py [--runs N] [--files N] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from common import (
    correx_script,
    cpu_table,
    git,
    load_average,
    make_large_repo,
    markdown_table,
    median,
    standard_args,
    time_commands_cpu,
)

PROFILE = """\
version = 1
[commands]
noop = "true"
nope = "false"
[expectations]
noop = ["noop"]
[stages.implement]
build_expectation = "noop"
writes = ["src/**", "untracked/**"]
max_attempts = 1000000
static_analysis = ["true"]
"""

PLAN = {"version": 1, "id": "bench-settle", "risk": "low",
        "steps": [{"id": "S1", "stage": "implement", "writes": ["src/**", "untracked/**"],
                   "expected_outputs": ["S1 works"], "checks": ["noop", "nope"],
                   "verification_map": [{"output": 0, "evidence": [{"check": 0}]}]}]}


def parse_args() -> argparse.Namespace:
    return standard_args(__doc__ or "", max_ratio=6.0).parse_args()


def prepare(repo: Path, plan: Path) -> None:
    """Profile committed, plan authorized, validated, grounded, verified, locked, S1 started."""
    (repo / ".correx.toml").write_text(PROFILE)
    git(repo, "add", ".correx.toml")
    git(repo, "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "commit",
        "-q", "--no-verify", "-m", "profile")
    plan.write_text(json.dumps(PLAN))
    correx = correx_script()
    git(repo, "config", "user.name", "Bench")
    git(repo, "config", "user.email", "bench@example.invalid")
    for argv in (["plan", "authorize", str(plan)], ["plan", "validate", str(plan)],
                 ["plan", "ground", str(plan)], ["verify", "--quiet", "--expect", "noop"],
                 ["plan", "lock", str(plan)], ["step", "start", "S1"]):
        _run(repo, [*correx, *argv])


def _run(cwd: Path, argv: list[str]) -> None:
    import subprocess

    proc = subprocess.run(argv, cwd=cwd, capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{argv} exited {proc.returncode}: {proc.stdout.decode()}"
                           f"{proc.stderr.decode()}")


def main() -> int:
    args = parse_args()
    repo = make_large_repo(args.workdir / f"settle-{args.files}", files=args.files)
    plan = args.workdir / f"settle-{args.files}-plan.json"
    if git(repo, "config", "--default", "", "correx.session").strip() == "":
        prepare(repo, plan)
    correx = " ".join(correx_script())
    commands: dict[str, list[str] | str] = {
        "git status": ["git", "status"],
        "git-correx state": [*correx_script(), "state"],
        "git-correx verify (in step S1: settlement, fails at nope)":
            f"{correx} verify --quiet; test $? -eq 1",
    }
    wall, cpu = time_commands_cpu(commands, args.runs, cwd=repo)
    settle = median(wall[list(commands)[2]])
    ratio = settle / median(wall["git status"])
    print(f"repository: {args.files} files, 100 modified, 100 untracked; {args.runs} runs; "
          f"load {load_average()}\n")
    print(markdown_table(wall, baseline="git status"))
    print()
    print(cpu_table(cpu))
    print(f"\nverify inside a step (write evidence, gates, commands, step_failed): "
          f"{settle * 1000:.1f} ms = {ratio:.2f} x git status (target <= {args.max_ratio})")
    return 0 if ratio <= args.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
