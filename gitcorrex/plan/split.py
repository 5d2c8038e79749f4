"""`split-required`: the corrective authority's route for a step whose task must split.

Produced only by `git correx plan route PLAN --step S --split --reason TEXT` (recorded as
`plan_routed` by a git identity). While it stands the plan is not accepted again and the
step may not start: a replacement plan that splits the task is the way on (seed 003 §4.3).

Routes are read as `PlanRoutedFields`. A `plan_routed` line whose fields do not fit is
treated as absent: it blocks neither the plan nor the step (it stays in the ledger; record
the route again with `plan route`).
"""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex.model.note_lines import LedgerEntry
from gitcorrex.model.plan import Plan
from gitcorrex.model.plan_events import (
    Finding,
    PlanRoutedFields,
)
from gitcorrex.model.routes import Route
from gitcorrex.model.typed_facts import Fact, in_time_order, read_facts


def split_routes(entries: Sequence[LedgerEntry], identity: str,
                 step: str | None = None) -> list[Fact[PlanRoutedFields]]:
    """`plan_routed` split-required facts about plan `identity` (and `step`) among `entries`
    (the plan blob's note), oldest first."""
    found = [f for f in read_facts(entries, PlanRoutedFields)
             if f.payload.plan == identity and f.payload.route is Route.SPLIT_REQUIRED
             and (step is None or f.step == step)]
    return in_time_order(found)


def split_findings(plan: Plan, routes: Sequence[Fact[PlanRoutedFields]]) -> list[Finding]:
    """One finding per step of `plan` routed split-required (the first routing of each)."""
    first: dict[str, Fact[PlanRoutedFields]] = {}
    for fact in routes:
        if fact.payload.route is Route.SPLIT_REQUIRED:
            first.setdefault(str(fact.step), fact)
    return [Finding(code="split_required", step=step.id, where=f"steps.{step.id}",
                    message=describe_split(first[step.id]),
                    hint="write a replacement plan that splits the task, then re-plan: "
                         "git correx plan lock NEW --session ID --replaces OLD")
            for step in plan.steps if step.id in first]


def describe_split(fact: Fact[PlanRoutedFields]) -> str:
    """`step S was routed split-required by NAME <EMAIL> at T: REASON`."""
    who = f"{fact.payload.name or '?'} <{fact.payload.email or '?'}>"
    return (f"step {fact.step} was routed split-required by {who} at "
            f"{fact.at[:19]}Z: {fact.payload.reason}")
