"""Plan decisions over a busy plan note, two source trees side by side (issue 15).

The plan commands read the plan facts as payload classes, parsing only the kinds a decision
needs (`model/typed_facts.py`). This times two read-only decisions over a plan note holding
`--facts` facts (a third each: authorizations by distinct identities, rejected validations,
groundings on other state keys), interleaved between two checkouts of git correx run as
`python -m gitcorrex` with the checkout on PYTHONPATH:

- `plan authorize PLAN` by an identity that already authorized it (records nothing);
- `plan lock PLAN --json`, refused (grounded only on other state keys, nothing verified).

Prints wall and CPU medians in ms and the load average. Usage:

    python benchmarks/bench_plan_facts.py --before OLD_CHECKOUT --after NEW_CHECKOUT [--runs 9]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from common import git, load_average, median

PROFILE = """version = 1
[commands]
test = "true"
[expectations]
full = ["test"]
[stages.implement]
build_expectation = "full"
writes = ["src/**"]
"""

PLAN = """version = 1
id = "bench-plan"
risk = "low"

[[steps]]
id = "S1"
stage = "implement"
writes = ["src/app.py"]
references = ["src/app.py"]
expected_outputs = ["the app returns 2"]
checks = ["test"]
verification_map = [{ output = 0, evidence = [{ check = 0 }] }]
dependencies = []
"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="old source checkout")
    parser.add_argument("--after", type=Path, required=True, help="new source checkout")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--facts", type=int, default=3000)
    parser.add_argument("--workdir", type=Path, default=Path(__file__).parent / "work")
    return parser.parse_args()


def build(root: Path, facts: int) -> Path:
    """A repository whose plan note holds `facts` plan facts, appended in one notes commit."""
    from common import in_process

    from gitcorrex import ledger
    from gitcorrex.ledger.provenance import current_provenance
    from gitcorrex.model.grounding import GroundingFields, Verdict
    from gitcorrex.model.plan_events import Decision, PlanAuthorizedFields, PlanValidatedFields
    from gitcorrex.model.record import EventPayload
    from gitcorrex.plan.open_plan import open_plan

    plan = root / "plan.toml"
    if plan.exists():
        return plan
    root.mkdir(parents=True)
    git(root, "init", "-q")
    (root / ".correx.toml").write_text(PROFILE)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("def run():\n    return 1\n")
    git(root, "add", "-A")
    git(root, "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "commit",
        "-q", "-m", "generated")
    plan.write_text(PLAN)
    os.chdir(root)
    repo = in_process(root)
    context = open_plan(repo, plan)
    common = {"plan": context.identity, "plan_id": context.plan_id}
    drafts = []
    for i in range(facts):
        kind = i % 3
        if kind == 0:
            payload: EventPayload = PlanAuthorizedFields(**common, name=f"Reviewer {i}",
                                                   email=f"r{i}@example.invalid")
        elif kind == 1:
            payload = PlanValidatedFields(
                **common, version=1, risk="low", decision=Decision.REJECT,
                execution_started=False, authority=None, findings=[], diagnostics=[],
                profile=context.profile.blob_oid)
        else:
            payload = GroundingFields(**common, verdict=Verdict.PASS, findings=[],
                                      profile=context.profile.blob_oid, index=None,
                                      extractors={})
        drafts.append(ledger.EventDraft(payload, subjects=(context.subject,),
                                        state_key=f"{i:040x}" if kind == 2 else None))
    ledger.append_events(repo, drafts, now=datetime.now(timezone.utc),
                         provenance=current_provenance(repo))
    return plan


def run_once(source: Path, root: Path, args: list[str]) -> tuple[float, float, int]:
    """(wall ms, CPU ms, exit code) of `python -m gitcorrex ARGS` from `source`."""
    env = {**os.environ, "PYTHONPATH": str(source), "GIT_AUTHOR_NAME": "Reviewer 0",
           "GIT_AUTHOR_EMAIL": "r0@example.invalid"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "gitcorrex", *args], cwd=root, env=env,
                          capture_output=True, check=False)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu, proc.returncode


def main() -> None:
    args = parse_args()
    sys.path.insert(0, str(args.after))
    root = args.workdir / f"plan-facts-{args.facts}"
    plan = build(root, args.facts)
    cases = {"plan authorize (already)": ["plan", "authorize", str(plan)],
             "plan lock (refused)": ["plan", "lock", str(plan), "--json"]}
    sources = {"before": args.before.resolve(), "after": args.after.resolve()}
    print(f"load before: {load_average()}")
    for name, command in cases.items():
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in sources}
        for label, source in sources.items():  # warm-up, and the exit codes must agree
            print(f"{name}: {label} exits {run_once(source, root, command)[2]}")
        for run in range(args.runs):
            order = list(sources.items()) if run % 2 == 0 else list(sources.items())[::-1]
            for label, source in order:
                wall, cpu, _ = run_once(source, root, command)
                times[label].append((wall, cpu))
        for label, measured in times.items():
            print(f"{name:28} {label:6} wall {median([w for w, _ in measured]):7.1f} ms  "
                  f"cpu {median([c for _, c in measured]):7.1f} ms")
    print(f"load after: {load_average()}")


if __name__ == "__main__":
    main()
