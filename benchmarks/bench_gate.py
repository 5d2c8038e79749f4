"""What `git correx gate` costs on top of the static analysis it runs, in units of
`git status`, and what a blocked `assess read` costs with precondition counting.

On a generated repository (default 50,000 committed files, 100 modified, 100 untracked)
with a stage that grounds a 50-reference brief against the state tree and runs `true` as
its static analysis, times whole processes side by side:

    bare      true                                          (the static command itself)
    gate      git-correx gate --stage s --artifact brief=…  (state key, artifacts blob,
                                                             grounding, run, re-key, 3 events)
    verify    git-correx verify --quiet --expect noop       (the same scans, one event)
    assess    git-correx assess read missing/file.txt       (a BLOCK: state key, record,
                                                             count the path's blocks)
    scale     git status

No target is set by the issue; the script prints the table and the gate's overhead over
the bare command, and always exits 0. Usage:

    python benchmarks/bench_gate.py [--runs N] [--files N] [--workdir DIR]
"""

from __future__ import annotations

import json
import sys

from common import (
    correx_script,
    make_large_repo,
    markdown_table,
    median,
    standard_args,
    time_commands,
)

PROFILE = """\
version = 1
[commands]
noop = "true"
[expectations]
noop = ["noop"]
[stages.s]
produces = ["brief"]
ground_references = true
static_analysis = ["noop"]
"""


def brief(references: int) -> str:
    """Requirements naming files of the generated tree (every one present)."""
    paths = [f"src/d000/d{(i // 100) % 100:02d}/f{i:06d}.txt" for i in range(references)]
    return json.dumps({"requirements": [f"keep {path} as it is" for path in paths]})


def main() -> int:
    args = standard_args(__doc__ or "", max_ratio=0.0).parse_args()
    repo = make_large_repo(args.workdir / f"gate-{args.files}", files=args.files)
    (repo / ".correx.toml").write_text(PROFILE)
    (repo / ".git" / "info" / "exclude").write_text("/brief.json\n")
    (repo / "brief.json").write_text(brief(50))
    correx = correx_script()
    commands: dict[str, list[str] | str] = {
        "true (the bare command)": ["true"],
        "git-correx gate --stage s --artifact brief=brief.json":
            [*correx, "gate", "--stage", "s", "--artifact", "brief=brief.json"],
        "git-correx verify --quiet --expect noop":
            [*correx, "verify", "--quiet", "--expect", "noop"],
        "git-correx assess read missing/file.txt (exit 1)":
            f"{' '.join(correx)} assess read missing/file.txt; test $? -eq 1",
        "git status": ["git", "status"],
    }
    times = time_commands(commands, args.runs, cwd=repo)
    names = list(commands)
    overhead = median(times[names[1]]) - median(times[names[0]])
    print(f"repository: {args.files} files, 100 modified, 100 untracked; {args.runs} runs\n")
    print(markdown_table(times, baseline="git status"))
    print(f"\ngate overhead over the bare command: {overhead * 1000:.1f} ms = "
          f"{overhead / median(times['git status']):.2f} x git status")
    return 0


if __name__ == "__main__":
    sys.exit(main())
