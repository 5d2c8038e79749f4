"""`git correx session status` on a long session: a whole process answers in <= 0.3 s.

Builds a session of N events (default 5,000) in a small repository through the ledger
API: the lock (session_started, plan_locked), a step start, then failing observations of
that step, each followed by its `step_failed` (realistic payloads: two commands with
bounded output tails). Times `git-correx session status ID --json` (state key of the work
tree included) and `replay --session ID --json` against `git status` as a reference.
Prints a Markdown table; exits 1 when the status median exceeds the limit. Usage:

    python benchmarks/bench_session.py [--events 5000] [--runs 9]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from append_event import observation
from common import correx_script, cpu_table, git, markdown_table, median, time_commands_cpu
from raw_events import raw_draft

from gitcorrex.git import notes
from gitcorrex.git.repository import discover
from gitcorrex.ledger import EventDraft, append_events
from gitcorrex.ledger.provenance import current_provenance

LIMIT_S = 0.3
SESSION = "bench-session"
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
PLAN = b'{"id":"bench","risk":"low","steps":[{"id":"S1","stage":"implement"}],"version":1}'


def parse_args() -> argparse.Namespace:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--workdir", type=Path, default=here / "work")
    return parser.parse_args()


def build(root: Path, events: int) -> None:
    """A fresh repository holding one session of exactly `events` events."""
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    git(root, "init", "-q")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("print('hello')\n")
    git(root, "add", "-A")
    git(root, "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "commit",
        "-q", "-m", "init")
    repo = discover(root)
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    plan = notes.write_blob(repo, PLAN)
    drafts = [_draft("session_started", tree, {"plan": plan, "plan_id": "bench",
                                               "steps": ["S1"]}, subjects=(plan,)),
              _draft("plan_locked", tree, {"plan": plan, "plan_id": "bench",
                                           "validation": "v" * 64, "grounding": "g" * 64},
                     subjects=(plan,)),
              _draft("transition_admitted", tree, {"transition": "step_start",
                                                   "from_revision": 2, "baseline": tree,
                                                   "checks": ["revision=2"]}),
              _draft("step_started", tree, {"writes": ["src/**"], "expectation_docs": False,
                                            "baseline": tree}, step="S1")]
    attempt = 0
    while len(drafts) < events:
        attempt += 1
        drafts.append(_draft("workspace_verification_observed", tree, observation(tree)))
        drafts.append(_draft("step_failed", tree, {
            "observation": "o" * 64, "result": "fail", "reason": None,
            "feedback": "FAILED: test_app expected 3, got 4\n" * 20, "output_blob": None,
            "attempts": attempt, "max_attempts": 10_000, "route": "continue-fix"}, step="S1"))
    provenance = current_provenance(repo)
    for start in range(0, events, 500):
        append_events(repo, drafts[start:min(start + 500, events)],
                      now=T0 + timedelta(seconds=start), provenance=provenance)


def _draft(kind: str, tree: str, fields: dict[str, Any], *, step: str | None = None,
           subjects: tuple[str, ...] = ()) -> EventDraft:
    return raw_draft(kind=kind, subjects=subjects, session=SESSION, stage="implement",
                      step=step, state_key=tree, fields=fields)


def cpu_seconds(argv: list[str], runs: int, cwd: Path) -> float:
    """Median CPU seconds of one run: what a shared machine's load does not move."""
    samples = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        samples.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return median(samples)


def main() -> int:
    args = parse_args()
    root = args.workdir / f"session-{args.events}"
    build(root, args.events)
    correx = correx_script()
    status_argv = " ".join([*correx, "session", "status", SESSION, "--json"])
    after = "the same, right after another process appended an event (the writer stored it)"
    append = [sys.executable, str(Path(__file__).resolve().parent / "append_event.py"), SESSION]
    times, cpu_times = time_commands_cpu({
        "git status": ["git", "status", "--porcelain"],
        f"git-correx session status ({args.events} events)":
            [*correx, "session", "status", SESSION, "--json"],
        "the same, the fold store emptied (what the first status after an append paid before)":
            f"rm -f .git/correx/folds/*.json; {status_argv}",
        after: [*correx, "session", "status", SESSION, "--json"],
        f"git-correx replay --session ({args.events} events)":
            [*correx, "replay", "--session", SESSION, "--json"],
    }, args.runs, root, setup={after: append})
    status = median(times[f"git-correx session status ({args.events} events)"])
    cpu = cpu_seconds([*correx, "session", "status", SESSION, "--json"], args.runs, root)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"session status, {args.events} events, {args.runs} runs; load average {load}\n")
    print(markdown_table(times, "git status"))
    print()
    print(cpu_table(cpu_times))
    met = status <= LIMIT_S
    print(f"\nsession status median {status:.3f} s wall, {cpu:.3f} s CPU (user + system, "
          f"children included) (limit {LIMIT_S} s wall): {'met' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
