"""The pre-commit hook against the minimal pipeline that does the same matching.

A 50,000-file repository whose HEAD holds a profile with a stage that allows everything the
commit touches (`writes = ["/src/**"]`), with 10,000 modified files staged (`git add -u`,
so GIT_INDEX_FILE is unset, as after a plain `git add`). Whole processes, round-robin:

    baseline  git diff-index --cached -r -z --no-renames HEAD | python match.py '/src/**'
    correx    git-correx hook run pre-commit        (with `git config correx.stage implement`)

plus the installed `.git/hooks/pre-commit` itself (sh, then the pinned interpreter's launcher),
which is what `git commit` actually pays, and the same hook **with a selected session**
(`CORREX_SESSION`, a session whose active step declares `src/**`; its fold stored by a
previous commit, as in a loop of commits between two events) and with the session's note
just changed: the fold store emptied (the fold runs again), and right after another process
appended an event (untimed; the writer stores the new note's fold, so the hook reads it).
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
from datetime import datetime, timezone
from pathlib import Path

from common import (
    IDENTITY,
    cpu_table,
    git,
    git_version,
    load_average,
    make_large_repo,
    markdown_table,
    median,
    time_commands_cpu,
)
from raw_events import raw_draft

from gitcorrex.git import notes
from gitcorrex.git.repository import discover
from gitcorrex.ledger import append_events
from gitcorrex.ledger.provenance import current_provenance

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
SESSION = "bench-hook"
WITH_SESSION = "git-correx hook run pre-commit, session selected (fold stored)"
FOLD_AGAIN = "git-correx hook run pre-commit, session selected, fold not stored"
AFTER_APPEND = "git-correx hook run pre-commit, session selected, right after an append"


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
    if not git(repo, "notes", "--ref=correx", "list").strip():
        start_session(repo)
    return repo


def start_session(root: Path) -> None:
    """A locked session with step S1 active, writes `src/**` (the events a lock and a step
    start write), appended through the ledger API."""
    repo = discover(root)
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    plan = notes.write_blob(repo, b'{"plan": 1}')
    common = {"session": SESSION, "stage": "implement", "state_key": tree}
    drafts = [
        raw_draft(kind="session_started", subjects=(plan,), **common,
                   fields={"plan": plan, "plan_id": "bench", "steps": ["S1"]}),
        raw_draft(kind="plan_locked", subjects=(plan,), **common,
                   fields={"plan": plan, "plan_id": "bench", "validation": "v" * 64,
                           "grounding": "g" * 64}),
        raw_draft(kind="step_started", subjects=(), step="S1", **common,
                   fields={"writes": PATTERNS, "expectation_docs": False, "baseline": tree}),
    ]
    append_events(repo, drafts, now=datetime.now(timezone.utc),
                  provenance=current_provenance(repo))


def commands_to_time() -> dict[str, list[str] | str]:
    python = shlex.quote(sys.executable)
    pipeline = ("git diff-index --cached -r -z --no-renames HEAD | "
                f"{python} .git/match.py {shlex.join(PATTERNS)}")
    return {
        BASELINE: pipeline,
        CORREX: correx_argv(),
        "installed .git/hooks/pre-commit (as git runs it)": [".git/hooks/pre-commit"],
        WITH_SESSION: f"CORREX_SESSION={SESSION} {shlex.join(correx_argv())}",
        FOLD_AGAIN: (f"rm -f .git/correx/folds/*.json; CORREX_SESSION={SESSION} "
                     f"{shlex.join(correx_argv())}"),
        AFTER_APPEND: f"CORREX_SESSION={SESSION} {shlex.join(correx_argv())}",
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
    load = load_average()
    append = [sys.executable, str(Path(__file__).resolve().parent / "append_event.py"), SESSION]
    times, cpu = time_commands_cpu(commands_to_time(), args.runs, cwd=repo,
                                   setup={AFTER_APPEND: append})
    ratio = median(times[CORREX]) / median(times[BASELINE])
    session_ratio = median(times[WITH_SESSION]) / median(times[BASELINE])
    print(f"{args.files} files, {staged} staged, {args.runs} runs, git {git_version()}, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; load average before "
          f"{load}, after {load_average()}\n")
    print(markdown_table(times, BASELINE))
    print()
    print(cpu_table(cpu))
    print(f"\n{CORREX} = {shlex.join(correx_argv())}")
    print(f"{BASELINE} = {commands_to_time()[BASELINE]}")
    print(f"{CORREX} / pipeline = {ratio:.2f} (limit {args.max_ratio})")
    print(f"{WITH_SESSION} / pipeline = {session_ratio:.2f} (limit {args.max_ratio})")
    return 0 if max(ratio, session_ratio) <= args.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
