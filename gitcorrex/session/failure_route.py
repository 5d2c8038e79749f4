"""Where a session goes after a step's checks failed: session policy (INV-7), decided here
from the plan's decision, not by the plan package."""

from __future__ import annotations

from gitcorrex.model.plan_events import Decision
from gitcorrex.model.routes import Route


def route_after_step_failure(plan_decision: Decision) -> Route:
    """A step whose checks failed: fix the code if the plan stands, else replan (INV-7).

    A valid step with defective code is ordinary implementation remediation
    (`continue-fix`); only a step boundary that is itself invalid routes to a new plan.
    """
    if plan_decision is Decision.ACCEPTED:
        return Route.CONTINUE_FIX
    return Route.REPLAN_REQUIRED
