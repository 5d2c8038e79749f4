"""`split-required`: the corrective authority's route for a step whose task must split.

Produced only by `git correx plan route PLAN --step S --split --reason TEXT` (recorded as
`plan_routed` by a git identity). While it stands the plan is not accepted again and the
step may not start: a replacement plan that splits the task is the way on (seed 003 §4.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.plan import Plan
from gitcorrex.model.plan_events import (
    Finding,
    PlanRoutedFields,
)
from gitcorrex.model.routes import Route


def split_routes(events: Sequence[RecordedEvent], identity: str,
                 step: str | None = None) -> list[RecordedEvent]:
    """`plan_routed` split-required events about plan `identity` (and `step`), oldest first."""
    found = [e for e in events if e.kind == PlanRoutedFields.KIND and e.field("plan") == identity
             and e.field("route") == Route.SPLIT_REQUIRED.value
             and (step is None or e.step == step)]
    return sorted(found, key=lambda e: (e.at, e.id))


def split_findings(plan: Plan, routes: Sequence[RecordedEvent]) -> list[Finding]:
    """One finding per step of `plan` routed split-required (the first routing of each)."""
    first: dict[str, RecordedEvent] = {}
    for event in routes:
        if event.field("route") == Route.SPLIT_REQUIRED.value:
            first.setdefault(str(event.step), event)
    return [Finding(code="split_required", step=step.id, where=f"steps.{step.id}",
                    message=describe_split(first[step.id]),
                    hint="write a replacement plan that splits the task, then re-plan: "
                         "git correx plan lock NEW --session ID --replaces OLD")
            for step in plan.steps if step.id in first]


def describe_split(event: RecordedEvent) -> str:
    """`step S was routed split-required by NAME <EMAIL> at T: REASON`."""
    who = f"{event.field('name') or '?'} <{event.field('email') or '?'}>"
    return (f"step {event.step} was routed split-required by {who} at "
            f"{event.at[:19]}Z: {event.field('reason')}")
