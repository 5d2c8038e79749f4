"""`git correx plan audit` and `git correx plan route`: the authorities outside the plan.

An outside auditor audits a guarded plan's proof obligations; the corrective authority
routes a step `split-required`. Both are recorded by the git identity that runs them.
"""

from __future__ import annotations

from pathlib import Path

import click

from gitcorrex.cli.options import emit_json, json_option
from gitcorrex.cli.plan_cmd import echo_next, plan_argument, plan_path
from gitcorrex.cli.session_cmd import transition_setup
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable, printable_lines


@click.command()
@plan_argument
@click.option("--proof", "proofs", multiple=True, metavar="STEP=MODE",
              help="An obligation audited (repeatable; default: every one the plan declares).")
@click.option("--note", default=None, help="What the auditor wants on record (≤ 1,024 chars).")
@json_option
def audit(plan_file: Path, proofs: tuple[str, ...], note: str | None, as_json: bool) -> Conclusion:
    """Audit a guarded plan's proof obligations as your git identity; record
    `plan_risk_audited`.

    The audit counts only from an identity that did not authorize the plan. Exit 0 audited
    (now or before), 1 refused (low-risk plan, structure, no obligations, the authorizer),
    2 malformed plan or an unknown --proof.
    """
    from gitcorrex.plan.audit import audit_plan

    repo, now, provenance = transition_setup()
    path = plan_path(repo, plan_file)
    out = audit_plan(repo, path, proofs=proofs, note=note, now=now, provenance=provenance)
    event = out.event or out.existing
    if as_json:
        emit_json({"plan": out.plan, "plan_id": out.plan_id, "audited": event is not None,
                   "recorded": out.event is not None,
                   "proofs": [p.model_dump(mode="json") for p in out.proofs],
                   "event": event.model_dump(mode="json") if event else None,
                   "findings": [f.model_dump(mode="json") for f in out.findings]})
    elif event is None or out.by is None:
        click.echo(printable(f"plan {out.plan_id} ({out.plan[:12]}): not audited"))
        for finding in out.findings:
            click.echo(printable_lines(f"  {finding.where}: {finding.message}\n"
                                       f"    hint: {finding.hint}"))
    else:
        when = "audited" if out.event else "already audited"
        click.echo(printable(f"plan {out.plan_id} ({out.plan[:12]}): {when} by "
                             f"{out.by.name} <{out.by.email}> at {event.at}"))
        for proof in out.proofs:
            click.echo(printable(f"  {proof.step}: {proof.failure_mode}"))
        echo_next("validate", path)
    return out.conclusion


@click.command()
@plan_argument
@click.option("--step", "step_id", required=True, metavar="STEP", help="The step routed.")
@click.option("--split", is_flag=True, required=True,
              help="Route it split-required: its task boundary must split.")
@click.option("--reason", required=True, help="Why (≤ 1,024 characters).")
@json_option
def route(plan_file: Path, step_id: str, split: bool, reason: str, as_json: bool) -> Conclusion:
    """Route STEP of the plan `split-required` as your git identity; record `plan_routed`.

    The step may not start and the plan is not accepted again: a replacement plan that
    splits the task supersedes it. Exit 0 routed (now or before), 2 no such step or no
    identity.
    """
    from gitcorrex.plan.route import route_split

    repo, now, provenance = transition_setup()
    out = route_split(repo, plan_path(repo, plan_file), step=step_id, reason=reason,
                      now=now, provenance=provenance)
    event = out.event or out.existing
    if event is None:
        raise ValueError("route_split returned without a plan_routed event")
    if as_json:
        emit_json({"plan": out.plan, "plan_id": out.plan_id, "step": out.step,
                   "route": "split-required", "recorded": out.event is not None,
                   "event": event.model_dump(mode="json")})
    else:
        when = "routed" if out.event else "already routed"
        click.echo(printable(f"plan {out.plan_id} ({out.plan[:12]}): step {out.step} "
                             f"{when} split-required by {out.by.name} <{out.by.email}>"))
    return Conclusion.OK
