"""`log`, `replay` and `replay --json` of two installs over well-formed verification lines.

`bench_log.py`'s fixture writes lines of a known kind with hand-picked fields (they do not
fit `VerificationFields`), so since reports read payload classes it times the path of a
line that does not fit. This fixture is what `git correx verify` writes: 1,000 commits, one
full verification observation each (the command record, output evidence, profile).
Timed interleaved by `bench_read_paths_compare.py`'s harness (wall and CPU medians). Usage:

    python benchmarks/bench_log_typed.py --before OLD/bin/python --after NEW/bin/python
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import timedelta
from pathlib import Path

from bench_log import T0, build_history
from bench_read_paths_compare import measure, report, script_of
from common import load_average

from gitcorrex.git.notes import write_blob
from gitcorrex.git.repository import discover_in_process
from gitcorrex.ledger import EventDraft, append_events
from gitcorrex.ledger.provenance import current_provenance
from gitcorrex.model.verification import (
    CommandRecord,
    OutputEvidence,
    Result,
    StopReason,
    VerificationFields,
)


def observation(i: int, tree: str, profile: str) -> VerificationFields:
    """A verification as `verify` records it: pass on two trees of three, else fail."""
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


def record_observations(path: Path, trees: list[str]) -> None:
    repo = discover_in_process(path)
    provenance = current_provenance(repo)
    profile = write_blob(repo, b'version = 1\n[commands]\ntest = "python -m pytest"\n')
    for start in range(0, len(trees), 100):
        drafts = [EventDraft(observation(i, tree, profile), (tree,), state_key=tree)
                  for i, tree in enumerate(trees[start:start + 100], start)]
        append_events(repo, drafts, now=T0 + timedelta(seconds=start), provenance=provenance)


def main() -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--workdir", type=Path, default=here / "work")
    args = parser.parse_args()
    path = args.workdir / f"log-typed-{args.commits}"
    record_observations(path, build_history(path, args.commits))
    # warm and cold apart: a cold run empties the fold store, and the two versions keep
    # their log statuses in different tables (log-status, log-status-2)
    warm = [("log (warm)", path, ["log"], False), ("replay", path, ["replay"], False),
            ("replay --json", path, ["replay", "--json"], False)]
    cold = [("log (cold fold)", path, ["log"], True)]
    versions = {"before": script_of(args.before), "after": script_of(args.after)}
    print(f"load average before: {load_average()} ({os.cpu_count()} CPUs)")
    times = {**measure(versions, args.runs, warm), **measure(versions, args.runs, cold)}
    print(f"load average after: {load_average()}\n")
    ok = report(times, [name for name, *_ in warm + cold], args.runs, 0.05, print)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
