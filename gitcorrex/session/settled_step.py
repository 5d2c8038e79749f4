"""The step one observation settles, with the attempt budget and the failure route in force.

Its own room so the settlement modules (settlement_events.py, settlement.py) and the entry
that builds it (verify_step.py) all import it from below, none of them from each other in a
circle.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.model.plan import Plan, PlanStep
from gitcorrex.model.routes import Route


@dataclass(frozen=True)
class ActiveStep:
    """The step an observation settles, with the budget and route in force."""

    session: str
    plan: Plan
    step: PlanStep
    max_attempts: int
    route: Route
