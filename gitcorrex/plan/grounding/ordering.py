"""Step ordering: a step may build only on a predecessor the settlement will verify.

A predecessor is settled by `verify` inside its step (docs/settlement.md): with a build
claim only when it declares writes and its stage's `build_expectation` (else the profile's
default expectation) runs at least one command; then the expectation's commands and the
step's own checks run. A predecessor without writes, or on a docs-only stage (`docs = []`,
`none`, no expectation at all), completes without a build claim whatever its checks say,
so a step that depends on it would start on an unverified increment: rejected before lock.
A check or a stage that names no profile entry cannot be verified either.
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
    policy = given.profile.stages.get(predecessor.stage)
    if policy is None:
        return found(Status.UNKNOWN, Route.REJECT,
                     detail=f"{before} is in stage {predecessor.stage!r}, which the profile "
                            "does not define: its increment cannot be verified")
    if not predecessor.writes:
        return found(Status.ABSENT, Route.REJECT,
                     detail=f"{before} declares no writes: it completes without a build "
                            "claim, so its increment is never verified")
    resolved = {check: given.commands_of(check, setup=False) for check in predecessor.checks}
    unknown = [check for check, commands in resolved.items() if commands is None]
    if unknown:
        return found(Status.UNKNOWN, Route.REJECT,
                     detail=f"{before} checks {', '.join(unknown)}, which the profile does not "
                            "define: its increment cannot be verified")
    expectation = policy.build_expectation or given.profile.defaults.expectation
    build = given.commands_of(expectation, setup=False) if expectation else None
    if not build:
        return found(Status.ABSENT, Route.REJECT,
                     detail=f"{before} is in stage {predecessor.stage!r}, whose build "
                            f"expectation {expectation or '(none)'} runs no command "
                            "(docs-only): it completes without a build claim, so its "
                            "increment is never verified, whatever its checks name")
    commands = list(dict.fromkeys([*build, *(n for names in resolved.values()
                                              for n in names or [])]))
    return found(Status.PRESENT, Route.PASS,
                 detail=f"{before} is verified by {', '.join(commands)}")
