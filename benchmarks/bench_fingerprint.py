"""What the environment fingerprint adds to `verify`, in `git status` units, on 50,000 files.

One run, interleaved after one untimed warm-up each (which also stores what verify keeps:
the kept index, the profile's selection, the fingerprint's digests): `true`, `git status`,
and `python -m gitcorrex verify --quiet` of a profile whose one command is `python3 -c
pass`, once from the source tree BEFORE the fingerprint (`--before REV`, checked out into a
temporary worktree) and once from this tree (AFTER), both through PYTHONPATH so their
start-up is the same path. The repository is bench_verify.py's fixture (50,000 files, 100
modified, 100 untracked) plus a `uv.lock` and a `requirements.txt`; PATH starts with the
running interpreter's directory, so `python3` resolves into its virtualenv and the
fingerprint digests its installed distributions. Then, in-process, the fingerprint alone:
cold (no stored digests) and warm. Prints medians with min-max, the overhead, and the load
average before and after (the machine is shared). Usage:

    python benchmarks/bench_fingerprint.py --before BASE_COMMIT [--runs 7] [--files 50000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import (
    cpu_table,
    in_process,
    load_average,
    make_large_repo,
    markdown_table,
    median,
    time_commands_cpu,
)

SOURCE = Path(__file__).resolve().parent.parent
PROFILE = """\
version = 1
[commands]
check = "python3 -c pass"
[expectations]
check = ["check"]
[defaults]
expectation = "check"
"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--before", required=True, help="a commit without the fingerprint")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--workdir", type=Path, default=SOURCE / "benchmarks" / "work")
    return parser.parse_args()


def verify_command(source: Path) -> str:
    """`python -m gitcorrex verify --quiet` importing the package from `source`."""
    bin_dir = Path(sys.executable).parent
    return (f"PATH={bin_dir}:$PATH PYTHONPATH={source} {sys.executable} -m gitcorrex "
            "verify --quiet")


def fingerprint_alone(repo: Path, runs: int) -> tuple[list[float], list[float]]:
    """The fingerprint computed in-process: cold (the stored digests removed) and warm."""
    sys.path.insert(0, str(SOURCE))
    from gitcorrex.git import compute_state
    from gitcorrex.runner.environment import fingerprint
    from gitcorrex.verify.selection import selected_commands

    handle = in_process(repo)
    chosen = selected_commands(handle, stage=None, expect=None).selection
    state = compute_state(handle).state_key
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    stored = handle.common_dir / "correx" / "folds" / "environment-digests.json"
    cold: list[float] = []
    warm: list[float] = []
    for _ in range(runs):
        for sample, forget in ((cold, True), (warm, False)):
            if forget:
                stored.unlink(missing_ok=True)
            start = time.perf_counter()
            fingerprint(handle, commands=chosen.commands, policy=chosen.environment,
                        run_dir=repo, env=env, state_key=state)
            sample.append(time.perf_counter() - start)
    return cold, warm


def main() -> int:
    args = parse_args()
    repo = make_large_repo(args.workdir / f"verify-{args.files}", files=args.files)
    (repo / ".correx.toml").write_text(PROFILE)
    (repo / "uv.lock").write_text("version = 1\n")
    (repo / "requirements.txt").write_text("pytest\n")
    with tempfile.TemporaryDirectory(prefix="bench-fingerprint-") as temp:
        before = Path(temp) / "before"
        subprocess.run(["git", "-C", str(SOURCE), "worktree", "add", "-q", "--detach",
                        str(before), args.before], check=True)
        try:
            commands: dict[str, list[str] | str] = {
                "true": ["true"], "git status": ["git", "status"],
                "verify (before)": verify_command(before),
                "verify (after)": verify_command(SOURCE)}
            load = load_average()
            wall, cpu = time_commands_cpu(commands, args.runs, cwd=repo)
            after_load = load_average()
        finally:
            subprocess.run(["git", "-C", str(SOURCE), "worktree", "remove", "--force",
                            str(before)], check=True)
    cold, warm = fingerprint_alone(repo, args.runs)
    print(f"repository: {args.files} files; {args.runs} runs, interleaved\n")
    print(f"load average before {load}, after {after_load}\n")
    print(markdown_table(wall, baseline="git status"))
    print()
    print(cpu_table(cpu))
    print()
    status = median(wall["git status"])
    added = median(wall["verify (after)"]) - median(wall["verify (before)"])
    print(f"the fingerprint adds {added * 1000:.0f} ms wall = {added / status:.2f} x git status "
          f"(CPU {(median(cpu['verify (after)']) - median(cpu['verify (before)'])) * 1000:.0f}"
          " ms)")
    print(f"fingerprint alone, in-process: cold {median(cold) * 1000:.1f} ms "
          f"({min(cold) * 1000:.1f}-{max(cold) * 1000:.1f}), warm {median(warm) * 1000:.1f} ms "
          f"({min(warm) * 1000:.1f}-{max(warm) * 1000:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
