"""The pre-commit hook against the minimal pipeline that does the same matching.

A 50,000-file repository whose HEAD holds a profile with a stage that allows everything the
commit touches (`writes = ["/src/**"]`), with 10,000 modified files staged (`git add -u`,
so GIT_INDEX_FILE is unset, as after a plain `git add`). Whole processes, round-robin:

    baseline  git diff-index --cached -r -z --no-renames HEAD | python match.py '/src/**'
    correx    git-correx hook run pre-commit        (with `git config correx.stage implement`)

plus the installed `.git/hooks/pre-commit` itself (sh, then the pinned interpreter's launcher),
which is what `git commit` actually pays.
`match.py` is the ten-line script below: split the NUL-separated raw diff, match every path
with `pathspec.GitIgnoreSpec`, exit 1 if one is outside. Both run on the same interpreter.
Prints a Markdown table of medians and exits 1 when correx's median exceeds `--max-ratio`
(1.5) times the baseline's. Usage:

    python benchmarks/bench_hook.py [--runs N] [--files N] [--staged N] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from pathlib import Path

from common import (
    IDENTITY,
    git,
    git_version,
    make_large_repo,
    markdown_table,
    median,
    time_commands,
)

PATTERNS = ["/src/**"]
PROFILE = f'version = 1\n\n[stages.implement]\nwrites = {PATTERNS!r}\n'.replace("'", '"')
MATCH_PY = """\
import sys
import pathspec
spec = pathspec.GitIgnoreSpec.from_lines(sys.argv[1:])
fields = sys.stdin.buffer.read().split(b"\\0")
paths = [raw.decode("utf-8", "surrogateescape") for raw in fields[1::2]]
outside = [path for path in paths if not spec.match_file(path)]
for path in outside:
    print(path)
sys.exit(1 if outside else 0)
"""
BASELINE = "diff-index → match.py (pathspec)"
CORREX = "git-correx hook run pre-commit"


def correx_argv() -> list[str]:
    """The console script next to this interpreter (not a PATH shim), else `-m`."""
    beside = Path(sys.executable).parent / "git-correx"
    prefix = [str(beside)] if beside.exists() else [sys.executable, "-m", "gitcorrex"]
    return [*prefix, "hook", "run", "pre-commit"]


def prepare(workdir: Path, files: int, staged: int) -> Path:
    """The generated repository, a committed profile, `staged` modified files staged."""
    repo = make_large_repo(workdir / f"hook-{files}-{staged}", files=files, modified=staged,
                           untracked=0)
    if git(repo, "ls-tree", "HEAD", ".correx.toml").strip() == "":
        (repo / ".correx.toml").write_text(PROFILE)
        git(repo, "add", ".correx.toml")
        git(repo, *IDENTITY, "commit", "-q", "--no-verify", "-m", "profile", "--",
            ".correx.toml")
    git(repo, "add", "-u")
    git(repo, "config", "correx.stage", "implement")
    (repo / ".git" / "match.py").write_text(MATCH_PY)
    subprocess.run([sys.executable, "-m", "gitcorrex", "hooks", "install"], cwd=repo,
                   check=True, capture_output=True)
    return repo


def commands_to_time() -> dict[str, list[str] | str]:
    python = shlex.quote(sys.executable)
    pipeline = ("git diff-index --cached -r -z --no-renames HEAD | "
                f"{python} .git/match.py {shlex.join(PATTERNS)}")
    return {
        BASELINE: pipeline,
        CORREX: correx_argv(),
        "installed .git/hooks/pre-commit (as git runs it)": [".git/hooks/pre-commit"],
        "python -m gitcorrex hook run pre-commit": [sys.executable, "-m", "gitcorrex", "hook",
                                                    "run", "pre-commit"],
        "git diff-index alone": "git diff-index --cached -r -z --no-renames HEAD >/dev/null",
        "python -c 'import pathspec'": [sys.executable, "-c", "import pathspec"],
        "python -c pass": [sys.executable, "-c", "pass"],
    }


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--staged", type=int, default=10_000)
    parser.add_argument("--workdir", type=Path, default=here / "work")
    parser.add_argument("--max-ratio", type=float, default=1.5)
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    repo = prepare(args.workdir, args.files, args.staged)
    env = {key: value for key, value in os.environ.items() if key != "GIT_INDEX_FILE"}
    staged = subprocess.run(["git", "diff", "--cached", "--name-only", "-z"], cwd=repo,
                            env=env, capture_output=True, check=True).stdout.count(b"\0")
    times = time_commands(commands_to_time(), args.runs, cwd=repo)
    ratio = median(times[CORREX]) / median(times[BASELINE])
    print(f"{args.files} files, {staged} staged, {args.runs} runs, git {git_version()}, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs\n")
    print(markdown_table(times, BASELINE))
    print(f"\n{CORREX} = {shlex.join(correx_argv())}")
    print(f"{BASELINE} = {commands_to_time()[BASELINE]}")
    print(f"{CORREX} / pipeline = {ratio:.2f} (limit {args.max_ratio})")
    return 0 if ratio <= args.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
