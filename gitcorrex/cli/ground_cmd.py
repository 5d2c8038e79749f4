"""`git correx plan ground`: a plan's assumptions against the current state key."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.cli.plan_cmd import echo_next, plan_argument, plan_path
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable_lines

if TYPE_CHECKING:
    from gitcorrex.plan.grounding.ground import GroundingOutcome


@click.command()
@plan_argument
@json_option
def ground(plan_file: Path, as_json: bool) -> Conclusion:
    """Check declared writes, referenced paths and symbols, build prerequisites and step
    ordering against the current state tree; record `plan_grounding_evaluated`.

    Exit 0 pass, 1 return_to_architect or clarification_required, 2 malformed plan or
    profile.
    """

    from gitcorrex.clock import now_utc
    from gitcorrex.git import StateProbe, discover

    repo = discover(start_dir())
    with StateProbe(repo).begin() as probe:  # git keys the workspace while we import
        from gitcorrex.ledger.provenance import current_provenance
        from gitcorrex.plan.grounding.ground import ground_plan

        provenance = current_provenance(repo)
        state_key = probe.measure().state_key
    path = plan_path(repo, plan_file)
    outcome = ground_plan(repo, path, state_key=state_key,
                          now=now_utc(), provenance=provenance)
    if as_json:
        emit_json(outcome_document(outcome))
    else:
        click.echo(printable_lines(outcome_text(outcome)))
        if outcome.conclusion is Conclusion.OK:
            echo_next("lock", path)
    return outcome.conclusion


def outcome_document(outcome: GroundingOutcome) -> dict[str, Any]:
    """The `--json` result: the recorded fields, the state key, the cache counters (the
    Python API's PlanGrounding, so `Workspace.plan_ground()` prints the same)."""
    from gitcorrex.api.flow_results import PlanGrounding

    document: dict[str, Any] = PlanGrounding.of(outcome).model_dump(mode="json")
    return document


def outcome_text(outcome: GroundingOutcome) -> str:
    """What the architect acts on: every finding that does not pass, then a summary (paths
    with control characters or undecodable bytes are shown escaped)."""
    from gitcorrex.model.repo_paths import printable_path as shown

    fields = outcome.fields
    lines = [f"plan {fields.plan_id} ({fields.plan[:12]}) on state {outcome.state_key[:12]}: "
             f"{fields.verdict.value}"]
    for f in fields.findings:
        if f.route.value == "pass":
            continue
        where = f" [{f.step}]" if f.step else ""
        lines.append(f"  {f.check.value}{where} {shown(f.subject)}: {f.status.value} -> "
                     f"{f.route.value}" + (f": {shown(f.detail)}" if f.detail else ""))
        if f.candidates:
            lines.append(f"    candidates: {', '.join(map(shown, f.candidates))}")
    counts: dict[str, int] = {}
    for f in fields.findings:
        counts[f.status.value] = counts.get(f.status.value, 0) + 1
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "nothing"
    lines.append(f"checked {len(fields.findings)} assumption(s): {summary}")
    if outcome.stats is not None:
        s = outcome.stats
        lines.append(f"symbol index: {s.blobs} blob(s), {s.parsed} parsed, {s.reused} cached")
    return "\n".join(lines)
