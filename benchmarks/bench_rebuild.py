"""What a state key costs when its kept index is made again, against `git status`, in one run.

The kept index takes no stat data from the user's index (git/state_index_seed.py): its
first key hashes every tracked file, and a key after a commit or a checkout hashes what
the user's index changed. Measured on a generated repository (default 50,000 files),
round-robin, each a whole process:

    baseline       git status --porcelain
    first key      git-correx state, the kept index removed before each run
    after commit   git-correx state after 100 files were edited, keyed and committed
    steady         git-correx state, nothing changed
    floor          git add -A + write-tree on an index with no stat data (every file hashed)

`--against SCRIPT` times another build's console script the same way on its own copy of the
repository (two builds sharing one would rebuild each other's kept index). Prints wall and
CPU medians and the load average.

    python benchmarks/bench_rebuild.py [--runs N] [--files N] [--workdir DIR] [--against SCRIPT]
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from pathlib import Path

from common import (
    correx_script,
    cpu_table,
    git,
    git_version,
    load_average,
    make_large_repo,
    markdown_table,
    standard_args,
    time_commands_cpu,
)

BASELINE = "git status --porcelain"
EDIT_AND_COMMIT = (
    "git ls-files src | shuf -n 100 | while IFS= read -r f; do echo edit >> \"$f\"; done; "
    "{script} state >/dev/null && git add -A && git -c user.name=b -c user.email=b@b "
    "commit -q --no-verify -m edit"
)
FLOOR = ("rm -f .git/bench-bare && git ls-files -s -z | GIT_INDEX_FILE=.git/bench-bare "
         "git update-index -z --index-info && GIT_INDEX_FILE=.git/bench-bare git add -A "
         "&& GIT_INDEX_FILE=.git/bench-bare git write-tree")


def parse_args() -> argparse.Namespace:
    parser = standard_args(__doc__ or "", max_ratio=float("inf"))
    parser.add_argument("--against", type=Path, help="another build's git-correx script")
    return parser.parse_args()


def rows(name: str, script: list[str], repo: Path
         ) -> tuple[dict[str, str], dict[str, str]]:
    """The three keys of one build in its own repository, and their untimed set-ups."""
    run = f"cd {shlex.quote(str(repo))} && {shlex.join(script)}"
    commands = {f"{name}: first key": f"{run} state",
                f"{name}: after a commit of 100 files": f"{run} state",
                f"{name}: steady": f"{run} state"}
    setup = {f"{name}: first key": f"rm -rf {shlex.quote(str(repo / '.git' / 'correx'))}",
             f"{name}: after a commit of 100 files":
                 f"cd {shlex.quote(str(repo))} && "
                 + EDIT_AND_COMMIT.format(script=shlex.join(script))}
    return commands, setup


def main() -> int:
    args = parse_args()
    repo = make_large_repo(args.workdir / f"rebuild-{args.files}", files=args.files)
    git(repo, "update-index", "--no-untracked-cache")
    git(repo, "config", "gc.auto", "0")  # no pack or prune mid-run (it voids the kept index)
    git(repo, "gc", "-q")  # and none still running from the generation when it is copied
    commands: dict[str, list[str] | str] = {BASELINE: ["git", "status", "--porcelain"]}
    setup: dict[str, list[str] | str] = {}
    builds = [("this build", correx_script(), repo)]
    if args.against:
        other = args.workdir / f"rebuild-{args.files}-against"
        shutil.rmtree(other, ignore_errors=True)
        shutil.copytree(repo, other, symlinks=True)
        builds.append((str(args.against), [str(args.against)], other))
    for name, script, where in builds:
        timed, before = rows(name, script, where)
        commands.update(timed)
        setup.update(before)
    commands["floor: add -A + write-tree, every file hashed"] = FLOOR
    load_before = load_average()
    times, cpu = time_commands_cpu(commands, args.runs, cwd=repo, setup=setup)
    (repo / ".git" / "bench-bare").unlink(missing_ok=True)
    print(f"{args.files} files, {args.runs} runs, git {git_version()}, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs\n"
          f"load average before {load_before}, after {load_average()}\n")
    print(markdown_table(times, BASELINE))
    print()
    print(cpu_table(cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
