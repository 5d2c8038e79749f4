"""The test-integrity scan over a real repository's history: how often it flags, why, and
how long it takes.

Each of the last N first-parent commits of REPO (default 500) is scanned against its first
parent, exactly as the gates scan a state against its baseline (`scan_trees`: changed
paths, both sides parsed from git's objects). Prints every flag (commit, subject, finding)
so a person can read them, a count per rule, and the time per commit (median, 95th
percentile, max). The repository is read, never written; a clone without a checkout is
enough:

    git clone --no-checkout https://github.com/pallets/flask /tmp/flask
    python benchmarks/bench_test_integrity.py /tmp/flask [--commits 500] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path


def first_parent_commits(repo: Path, count: int) -> list[tuple[str, str, str, str]]:
    """(commit, parent, tree, parent tree, subject) of the last `count` first-parent
    commits that have a parent, newest first."""
    out = subprocess.run(["git", "-C", str(repo), "log", "--first-parent", f"-{count}",
                          "--format=%H %P%x00%T%x00%s"], capture_output=True, check=True,
                         text=True).stdout
    rows = []
    for line in out.splitlines():
        ids, tree, subject = line.split("\0")
        parts = ids.split()
        if len(parts) >= 2:
            rows.append((parts[0], parts[1], tree, subject))
    return rows


def parent_trees(repo: Path, parents: list[str]) -> dict[str, str]:
    stdin = "".join(f"{p}^{{tree}}\n" for p in parents)
    out = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch-check=%(objectname)"],
                         input=stdin, capture_output=True, check=True, text=True).stdout
    return dict(zip(parents, out.split(), strict=True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    args = parser.parse_args()
    from gitcorrex.git import discover
    from gitcorrex.integrity.scan import scan_trees

    repo = discover(args.repo.resolve())
    commits = first_parent_commits(args.repo, args.commits)
    trees = parent_trees(args.repo, [parent for _, parent, _, _ in commits])
    scan_trees(repo, baseline=trees[commits[-1][1]], state=commits[-1][2])  # warm-up
    times: list[float] = []
    flagged: list[dict[str, object]] = []
    rules: Counter[str] = Counter()
    touched = 0
    for commit, parent, tree, subject in commits:
        start = time.perf_counter()
        scan = scan_trees(repo, baseline=trees[parent], state=tree)
        times.append((time.perf_counter() - start) * 1000)
        touched += scan.test_files > 0
        if scan.findings:
            rules.update({finding.rule.value for finding in scan.findings})
            flagged.append({"commit": commit, "subject": subject,
                            "findings": [f.describe() for f in scan.findings]})
    summary = {"repo": str(args.repo), "commits": len(commits), "touching_tests": touched,
               "flagged": len(flagged), "commits_per_rule": dict(sorted(rules.items())),
               "ms_per_commit": {"median": round(statistics.median(times), 1),
                                 "p95": round(sorted(times)[int(len(times) * 0.95)], 1),
                                 "max": round(max(times), 1)},
               "flags": flagged}
    if args.json:
        json.dump(summary, sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    for flag in flagged:
        print(f"{str(flag['commit'])[:10]} {flag['subject']}")
        for line in flag["findings"]:  # type: ignore[attr-defined]
            print(f"    {line}")
    print(f"\n{summary['commits']} commits, {touched} touching test files, "
          f"{summary['flagged']} flagged; commits per rule: {summary['commits_per_rule']}")
    print(f"ms per commit: {summary['ms_per_commit']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
