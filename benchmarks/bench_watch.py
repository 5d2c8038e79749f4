"""`git correx state` with and without the watcher, against `git status`, in one run.

Two copies of one generated repository (default 50,000 committed files, 100 modified, 100
untracked): in one `git correx watch start` was run (watchman must be installed and
running), the other keys as before. Timed round-robin as whole processes:

    git status --porcelain                  (in the unwatched copy)
    git-correx state                        (unwatched: the kept index, `git status` first)
    git-correx state, watcher on            (watched: only what watchman reports)

once with the workspace left as it is between runs, and once with one file edited before
each run (`echo >> FILE`, the same edit in front of all three). Prints wall and CPU medians,
the load average, and checks first that all keys equal the definition's.

    python benchmarks/bench_watch.py [--runs N] [--files N] [--workdir DIR]
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
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
PLAIN = "git-correx state"
WATCHED = "git-correx state, watcher on"
EDITED = "src/d000/d00/f000001.txt"


def prepare(args_workdir: Path, files: int) -> tuple[Path, Path]:
    """The generated repository and a copy of it with the watcher started."""
    plain = make_large_repo(args_workdir / f"state-{files}", files=files)
    watched = args_workdir / f"watched-{files}"
    if not watched.exists():  # copied under another name first: a half copy is never used
        partial = watched.with_name(watched.name + ".partial")
        for _attempt in range(3):  # a detached `git gc --auto` may still move objects
            shutil.rmtree(partial, ignore_errors=True)
            if subprocess.run(["cp", "-a", str(plain), str(partial)]).returncode == 0:
                break
            time.sleep(10)
        partial.rename(watched)
    for repo in (plain, watched):
        subprocess.run(["git", "update-index", "--no-untracked-cache"], cwd=repo,
                       check=True, capture_output=True)
    started = subprocess.run([*correx_script(), "watch", "start"], cwd=watched,
                             capture_output=True, text=True, check=False)
    if started.returncode != 0:
        raise SystemExit(f"watch start failed: {started.stderr.strip()}")
    return plain, watched


def definition(repo: Path) -> str:
    script = ("cp -p .git/index .git/bench-def && GIT_INDEX_FILE=.git/bench-def git add -A "
              "&& GIT_INDEX_FILE=.git/bench-def git write-tree && rm .git/bench-def")
    return subprocess.run(["bash", "-c", script], cwd=repo, capture_output=True, text=True,
                          check=True).stdout.strip()


def check_keys(plain: Path, watched: Path) -> str:
    """Each copy's key is its definition's (the copies differ once the edit runs have
    run: each timed command edits its own copy)."""
    correx = correx_script()
    for repo in (plain, watched):
        key = subprocess.run([*correx, "state"], cwd=repo, capture_output=True, text=True,
                             check=True).stdout.strip()
        if key != definition(repo):
            raise SystemExit(f"{repo}: key {key} is not the definition's {definition(repo)}")
    return key


def commands(plain: Path, watched: Path, edit: bool) -> dict[str, str]:
    correx = " ".join(shlex.quote(part) for part in correx_script())
    before = f"echo x >> {EDITED} && " if edit else ""
    return {
        BASELINE: f"cd {shlex.quote(str(plain))} && {before}git status --porcelain",
        PLAIN: f"cd {shlex.quote(str(plain))} && {before}{correx} state",
        WATCHED: f"cd {shlex.quote(str(watched))} && {before}{correx} state",
    }


def main() -> int:
    args = standard_args(__doc__ or "", max_ratio=1.0).parse_args()
    plain, watched = prepare(args.workdir, args.files)
    key = check_keys(plain, watched)
    print(f"{args.files} files, {args.runs} runs, git {git_version()}, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; state key {key}")
    for edit in (False, True):
        load_before = load_average()
        times, cpu = time_commands_cpu(commands(plain, watched, edit), args.runs, cwd=plain)
        print(f"\n### {'one file edited before each run' if edit else 'workspace unchanged'}"
              f"\nload average before {load_before}, after {load_average()}\n")
        print(markdown_table(times, BASELINE))
        print()
        print(cpu_table(cpu))
        print(f"\nwatched / git status = {median(times[WATCHED]) / median(times[BASELINE]):.2f}"
              f"; unwatched / git status = {median(times[PLAIN]) / median(times[BASELINE]):.2f}")
    check_keys(plain, watched)
    status = subprocess.run([*correx_script(), "watch", "status"], cwd=watched,
                            capture_output=True, text=True, check=False).stdout.strip()
    print(f"\n{status}")
    subprocess.run([*correx_script(), "watch", "stop"], cwd=watched, capture_output=True,
                   check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
