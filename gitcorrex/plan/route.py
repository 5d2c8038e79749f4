"""`git correx plan route PLAN --step S --split --reason TEXT`: the corrective authority's route.

Records `plan_routed` (route `split-required`) by the current git identity, bound to the
plan identity: the step's task boundary must split, so the step may not start and the
plan is not accepted again until a replacement plan supersedes it (split.py). Routing a
step that is already routed split-required records nothing new.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.errors import UsageError
from gitcorrex.git import Repository
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.plan_events import PlanRoutedFields
from gitcorrex.model.routes import Route
from gitcorrex.model.typed_facts import Fact
from gitcorrex.plan.open_plan import open_plan
from gitcorrex.plan.risk_audit import Identity
from gitcorrex.plan.split import split_routes


@dataclass(frozen=True)
class RouteOutcome:
    """The routing recorded now (`event`) or before (`existing`), and `by` whom."""

    plan: str
    plan_id: str
    step: str
    event: RecordedEvent | None
    existing: RecordedEvent | None
    by: Identity


def route_split(repo: Repository, path: Path, *, step: str, reason: str, now: datetime,
                provenance: Provenance) -> RouteOutcome:
    """Route `step` of the plan at `path` split-required (exit 2: no identity, no such step)."""
    name, email = provenance.name, provenance.email
    if name is None and email is None:
        raise UsageError("a route is recorded by a git identity, and none is set",
                         hint="set `git config user.name` and `git config user.email`")
    if not reason.strip() or len(reason) > 1024:
        raise UsageError("--reason must say why, in 1 to 1,024 characters",
                         hint="name what makes the task boundary split")
    context = open_plan(repo, path)
    plan = context.loaded.plan
    if plan.step(step) is None:
        raise UsageError(f"plan {plan.id} has no step {step!r}",
                         hint=f"steps: {', '.join(s.id for s in plan.steps)}")
    existing: list[Fact[PlanRoutedFields]] = []

    def drafts(view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        entries = view.counted_on(context.subject)
        existing[:] = split_routes(entries, context.identity, step)[:1]
        if existing:
            return []
        fields = PlanRoutedFields(plan=context.identity, plan_id=plan.id,
                                  route=Route.SPLIT_REQUIRED, reason=reason, name=name,
                                  email=email)
        return [ledger.EventDraft(fields, subjects=(context.subject,), step=step)]

    events = ledger.append_events(repo, drafts, now=now, provenance=provenance)
    return RouteOutcome(plan=context.identity, plan_id=plan.id, step=step,
                        event=events[0] if events else None,
                        existing=existing[0].event() if existing else None,
                        by=Identity.of(existing[0].payload) if existing else Identity(name, email))
