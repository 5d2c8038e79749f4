"""`git correx log` over 1,000 commits whose trees all have recorded verifications.

The history is made with `git fast-import` (one file changed per commit, so every commit
has its own tree); each tree gets one verification observation as `verify` writes it,
appended 100 per notes commit. Timed as whole processes, round-robin after a warm-up:

- `git correx log` (target: median <= 0.3 s);
- `git log --format='%h %s'`, git alone printing the same commits (no ledger);
- git-test's method, as a shell loop: two git processes per commit (`rev-parse C^{tree}`
  and `git notes show TREE`) — measured with fewer runs, it takes seconds.

Usage: python benchmarks/bench_log.py [--commits 1000] [--runs 9] [--loop-runs 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import (
    correx_script,
    cpu_table,
    git,
    in_process,
    markdown_table,
    median,
    time_commands,
    time_commands_cpu,
)

from gitcorrex.git import write_blob
from gitcorrex.ledger import EventDraft, append_events
from gitcorrex.ledger.provenance import current_provenance
from gitcorrex.model.verification import (
    CommandRecord,
    OutputEvidence,
    Result,
    StopReason,
    VerificationFields,
)

LIMIT = 0.3
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


PROFILE = b'version = 1\n[commands]\ntest = "python -m pytest"\n'


def build_history(path: Path, commits: int) -> list[str]:
    """A repository of `commits` commits on main, each tree holding PROFILE (a pass counts
    only under the profile its tree holds); returns their trees, oldest first."""
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    git(path, "init", "-q")
    stream = []
    for i in range(commits):
        message, content = f"change {i}\n".encode(), f"state {i}\n".encode()
        stream.append(b"commit refs/heads/main\n")
        stream.append(b"committer Bench <bench@example.invalid> %d +0000\n" % (1_700_000_000 + i))
        stream.append(b"data %d\n%s" % (len(message), message))
        stream.append(b"M 100644 inline file.txt\ndata %d\n%s\n" % (len(content), content))
        if i == 0:
            stream.append(b"M 100644 inline .correx.toml\ndata %d\n%s\n" % (len(PROFILE),
                                                                            PROFILE))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=b"".join(stream),
                   check=True)
    git(path, "checkout", "-q", "main")
    out = git(path, "rev-list", "--reverse", "--format=%T", "main")
    return [line for line in out.split("\n") if line and not line.startswith("commit ")]


def observation(i: int, tree: str, profile: str) -> VerificationFields:
    """A verification as `verify` records it (command record, output evidence, profile):
    pass on two trees of three, else fail. Reports read it into its payload class; a line
    whose fields do not fit would be timed on its (rare) problem path instead."""
    passed = i % 3 != 0
    record = CommandRecord(
        name="test", argv=["python", "-m", "pytest"], digest="0" * 64,
        exit_code=0 if passed else 1, signal=None, stop_reason=StopReason.EXIT,
        duration_ms=1000 + i % 997,
        output=OutputEvidence(size=84, sha256="0" * 64, tail="passed " * 12, blob=None,
                              truncated=False))
    return VerificationFields(
        expectation="test", result=Result.PASS if passed else Result.FAIL, reason=None,
        missing_path=None, commands=[record], writes=[], state_after=tree, head_tree=tree,
        changed_paths=[], changed_paths_omitted=0, profile=profile, isolated=False,
        reused_from=None)


def record_verifications(path: Path, trees: list[str]) -> None:
    """One observation per tree, 100 per notes commit."""
    repo = in_process(path)
    provenance = current_provenance(repo)
    profile = write_blob(repo, PROFILE)
    for start in range(0, len(trees), 100):
        drafts = [EventDraft(observation(i, tree, profile), (tree,), state_key=tree)
                  for i, tree in enumerate(trees[start:start + 100], start)]
        append_events(repo, drafts, now=T0 + timedelta(seconds=start), provenance=provenance)


def main() -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--loop-runs", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=here / "work")
    args = parser.parse_args()
    path = args.workdir / "log-history"
    record_verifications(path, build_history(path, args.commits))
    listed = subprocess.run([*correx_script(), "log", "--all"], cwd=path, capture_output=True,
                            check=True).stdout.decode().splitlines()
    assert len(listed) == args.commits and all(" - none " not in line and " ≠ " not in line
                                               for line in listed)
    log_argv = " ".join([*correx_script(), "log", "--all"])
    times, cpu_times = time_commands_cpu({
        "git correx log": [*correx_script(), "log", "--all"],
        "git correx log, statuses not stored (every note new)":
            f"rm -f .git/correx/folds/log-status*.json; {log_argv} >/dev/null",
        "git log --format='%h %s'": ["git", "log", "--format=%h %s"]}, args.runs, path)
    loop = ("for c in $(git rev-list HEAD); do t=$(git rev-parse $c^{tree}); "
            "git notes --ref correx show $t >/dev/null; done")
    times.update(time_commands({"2 git processes per commit (git-test)": loop},
                               args.loop_runs, path))
    print(f"# {args.commits} commits, each tree verified; load {os.getloadavg()[0]:.2f}")
    print(markdown_table(times, "git correx log"))
    print()
    print(cpu_table(cpu_times))
    took = median(times["git correx log"])
    print(f"\ngit correx log: median {took:.3f} s (target <= {LIMIT} s)")
    return 0 if took <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
