"""What `git correx verify` adds on top of the command it verifies, in units of `git status`.

On a generated repository (default 50,000 committed files, 100 modified, 100 untracked)
with a profile whose only command is `true`, times whole processes side by side:

    bare      true                                      (the command itself)
    correx    git-correx verify --quiet --expect noop   (state key before and after,
                                                         run, record one event)
    scale     git status

Overhead = median(correx) - median(bare); the target is overhead <= 1.5 x median(git status).
Also timed, to show the floor of the design: `git diff-files` twice (the two stat passes
over every tracked file a verify must make, before and after the command: a pass recorded
for a key the command did not see would break the known-good invariant), and, with
`--watch` (watchman installed), verify and state again after `git correx watch start`
(the first key from watchman, the second still a full scan). Exits 1 when the target is
missed. Usage:

    python benchmarks/bench_verify.py [--runs N] [--files N] [--workdir DIR] [--watch]
"""

from __future__ import annotations

import argparse
import subprocess
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
    parser = standard_args(__doc__ or "", max_ratio=1.5)
    parser.add_argument("--watch", action="store_true",
                        help="also time verify and state with the watcher on")
    return parser.parse_args()


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
        "floor: git diff-files twice (two stat passes)":
            "git diff-files --quiet; git diff-files --quiet; true",
    }
    load = load_average()
    times, cpu = time_commands_cpu(commands, args.runs, cwd=repo)
    if args.watch:
        started = subprocess.run([*correx_script(), "watch", "start"], cwd=repo,
                                 capture_output=True, text=True, check=False)
        if started.returncode != 0:
            raise SystemExit(f"watch start failed: {started.stderr.strip()}")
        try:
            watched = {f"{name}, watcher on": command for name, command in commands.items()
                       if name.startswith("git-correx")}
            more, more_cpu = time_commands_cpu({"git status": ["git", "status"], **watched},
                                               args.runs, cwd=repo)
        finally:
            subprocess.run([*correx_script(), "watch", "stop"], cwd=repo, check=False,
                           capture_output=True)
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
    if args.watch:
        print(f"\nwith the watcher on (load {load_average()}):\n")
        print(markdown_table(more, baseline="git status"))
        print()
        print(cpu_table(more_cpu))
        name = f"{names[1]}, watcher on"
        watched_ratio = (median(more[name]) - median(times[names[0]])) / \
            median(more["git status"])
        print(f"\nverify overhead with the watcher: {watched_ratio:.2f} x git status")
        ratio = min(ratio, watched_ratio)
    return 0 if ratio <= args.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
