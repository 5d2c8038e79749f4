"""`verify` of `true` by two or more installed versions, interleaved, in `git status` units.

Each `--version NAME=PYTHON` names an interpreter with git-correx installed beside it
(non-editable); every run times `true`, `git status` and each version's
`git-correx verify --quiet --expect noop` in turn on the bench_verify.py fixture (50,000
files, 100 modified, 100 untracked), each version on its own copy of it: what a version
keeps between runs (the kept index, the profile's selection) is its own, and two versions
sharing one repository would make each other rebuild it on every run. One untimed warm-up
each stores it (and `--watch` starts each copy's watcher first). Prints wall and CPU
medians with min-max, the overhead over `true` in `git status` units for each version, and
the load average before and after. Usage:

    python benchmarks/bench_verify_compare.py --version main=/tmp/a/bin/python \\
        --version plain=/tmp/b/bin/python [--runs 9] [--files 50000] [--watch]
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from pathlib import Path

from bench_verify import PROFILE
from common import (
    cpu_table,
    load_average,
    make_large_repo,
    markdown_table,
    median,
    time_commands_cpu,
)


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--version", action="append", required=True,
                        help="NAME=PYTHON: an interpreter with git-correx installed beside it")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--workdir", type=Path, default=here / "work")
    parser.add_argument("--watch", action="store_true",
                        help="each copy with its watcher on (`git correx watch start`)")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    repo = make_large_repo(args.workdir / f"verify-{args.files}", files=args.files)
    (repo / ".correx.toml").write_text(PROFILE)
    here = f"cd {shlex.quote(str(repo))} && "  # every row through one shell, as the verifies
    commands: dict[str, list[str] | str] = {"true": here + "true",
                                            "git status": here + "git status"}
    for spec in args.version:
        name, _, python = spec.partition("=")
        script = str(Path(python).parent / "git-correx")
        copy = make_large_repo(args.workdir / f"verify-{args.files}-{name}", files=args.files)
        (copy / ".correx.toml").write_text(PROFILE)
        subprocess.run([script, "watch", "start" if args.watch else "stop"], cwd=copy,
                       check=False, capture_output=True)
        verify = (f"cd {shlex.quote(str(copy))} && "
                  f"{shlex.quote(script)} verify --quiet --expect noop")
        subprocess.run(verify, shell=True, check=False, capture_output=True)  # warm-up
        commands[f"verify ({name})"] = verify
    load = load_average()
    wall, cpu = time_commands_cpu(commands, args.runs, cwd=repo)
    print(f"repository: {args.files} files; {args.runs} runs, interleaved\n")
    print(f"load average before {load}, after {load_average()}\n")
    print(markdown_table(wall, baseline="git status"))
    print()
    print(cpu_table(cpu))
    print()
    for name in commands:
        if name.startswith("verify"):
            over = median(wall[name]) - median(wall["true"])
            over_cpu = median(cpu[name]) - median(cpu["true"])
            print(f"{name}: overhead {over * 1000:.0f} ms = "
                  f"{over / median(wall['git status']):.2f} x git status; CPU "
                  f"{over_cpu * 1000:.0f} ms = {over_cpu / median(cpu['git status']):.2f} x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
