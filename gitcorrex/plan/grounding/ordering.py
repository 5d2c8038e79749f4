"""Step ordering: a step may build only on a predecessor whose increment can be verified.

A predecessor with no checks, or whose checks run no command (a docs-only expectation such
as `docs = []` or `none`), can never leave a passing observation behind, so a step that
depends on it would start on an unverified increment: rejected before lock. A check that
names no profile entry cannot be verified either (`plan validate` reports it in full).
"""

from __future__ import annotations

from functools import partial

from gitcorrex.model.grounding import Check, GroundingFinding, Route, Status
from gitcorrex.model.plan import PlanStep
from gitcorrex.plan.grounding.inputs import GroundingInput, finding


def check_ordering(given: GroundingInput) -> list[GroundingFinding]:
    return [_check_edge(given, step, dependency.step)
            for step in given.plan.steps for dependency in step.dependencies]


def _check_edge(given: GroundingInput, step: PlanStep, before: str) -> GroundingFinding:
    found = partial(finding, Check.ORDERING, step.id, f"{step.id} after {before}")
    predecessor = given.steps.get(before)
    if predecessor is None:
        return found(Status.ABSENT, Route.REJECT, detail=f"no step {before!r} in the plan")
    if not predecessor.checks:
        return found(Status.ABSENT, Route.REJECT,
                     detail=f"{before} has no checks: its increment cannot be verified")
    resolved = {check: given.commands_of(check, setup=False) for check in predecessor.checks}
    unknown = [check for check, commands in resolved.items() if commands is None]
    if unknown:
        return found(Status.UNKNOWN, Route.REJECT,
                     detail=f"{before} checks {', '.join(unknown)}, which the profile does not "
                            "define: its increment cannot be verified")
    commands = sorted({name for names in resolved.values() for name in names or []})
    if not commands:
        return found(Status.ABSENT, Route.REJECT,
                     detail=f"{before} runs no command (docs-only): its increment cannot be "
                            "verified")
    return found(Status.PRESENT, Route.PASS, detail=f"{before} is verified by "
                                                    f"{', '.join(commands)}")
