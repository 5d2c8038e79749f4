"""What `git correx verify` adds on top of the command it verifies, in units of `git status`.

On a generated repository (default 50,000 committed files, 100 modified, 100 untracked)
with a profile whose only command is `true`, times whole processes side by side:

    bare      true                                      (the command itself)
    correx    git-correx verify --quiet --expect noop   (state key before and after,
                                                         run, record one event)
    scale     git status

Overhead = median(correx) - median(bare); the target is overhead <= 2.5 x median(git status).
Exits 1 when the target is missed. Usage:

    python benchmarks/bench_verify.py [--runs N] [--files N] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import sys

from common import (
    correx_script,
    cpu_table,
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
[expectations]
noop = ["noop"]
"""


def parse_args() -> argparse.Namespace:
    return standard_args(__doc__ or "", max_ratio=2.5).parse_args()


def main() -> int:
    args = parse_args()
    repo = make_large_repo(args.workdir / f"verify-{args.files}", files=args.files)
    (repo / ".correx.toml").write_text(PROFILE)
    commands: dict[str, list[str] | str] = {
        "true (the bare command)": ["true"],
        "git-correx verify --quiet --expect noop": [*correx_script(), "verify", "--quiet",
                                                    "--expect", "noop"],
        "git status": ["git", "status"],
        "git-correx state": [*correx_script(), "state"],
    }
    load = load_average()
    times, cpu = time_commands_cpu(commands, args.runs, cwd=repo)
    names = list(commands)
    overhead = median(times[names[1]]) - median(times[names[0]])
    ratio = overhead / median(times["git status"])
    print(f"repository: {args.files} files, 100 modified, 100 untracked; {args.runs} runs\n")
    print(f"load average before {load}, after {load_average()}\n")
    print(markdown_table(times, baseline="git status"))
    print()
    print(cpu_table(cpu))
    cpu_overhead = median(cpu[names[1]]) - median(cpu[names[0]])
    print(f"\nCPU: overhead {cpu_overhead * 1000:.1f} ms = "
          f"{cpu_overhead / median(cpu['git status']):.2f} x git status's CPU")
    print(f"\nverify overhead over the bare command: {overhead * 1000:.1f} ms = "
          f"{ratio:.2f} x git status (target <= {args.max_ratio})")
    return 0 if ratio <= args.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
