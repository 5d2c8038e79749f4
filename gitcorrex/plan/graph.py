"""Step dependencies (seed 003 INV-5, §8.5-6): causal, existing, not self, acyclic.

Ordinal has no dependency semantics: two steps without dependencies are independent
whatever their order in the file, and a step becomes ready only when every step it
depends on is complete (`session/start.py` admits a step on exactly that).
"""

from __future__ import annotations

from collections.abc import Collection

from gitcorrex.model.plan import Plan, PlanStep
from gitcorrex.model.plan_events import Finding


def step_where(plan: Plan, step: PlanStep, tail: str = "") -> str:
    """`steps[2] (S3).checks[0]`: the location as written, with the step's id."""
    return f"steps[{plan.steps.index(step)}] ({step.id}){tail}"


def dependency_findings(plan: Plan) -> list[Finding]:
    """Missing, self, duplicate and non-causal edges, then every cycle among the rest."""
    found: list[Finding] = []
    for step in plan.steps:
        named: set[str] = set()
        for index, dep in enumerate(step.dependencies):
            found += _edge_findings(plan, step, index, named)
            named.add(dep.step)
    found += _cycle_findings(plan)
    return found


def _edge_findings(plan: Plan, step: PlanStep, index: int, named: set[str]) -> list[Finding]:
    dep = step.dependencies[index]
    tail = f".dependencies[{index}]"
    predecessor = plan.step(dep.step)
    if dep.step == step.id:
        return [_finding(plan, step, "dependency_self", tail, "depends on itself",
                         "remove the self-dependency")]
    if predecessor is None:
        return [_finding(plan, step, "dependency_missing", f"{tail}.step",
                         f'depends on "{dep.step}", which the plan lacks',
                         "name an existing step id, or remove the dependency")]
    if dep.step in named:
        return [_finding(plan, step, "dependency_duplicate", tail,
                         f"lists its dependency on {dep.step} twice",
                         "keep one entry and list every required output there")]
    if not dep.requires:
        return [_finding(plan, step, "dependency_not_causal", f"{tail}.requires",
                         f"depends on {dep.step} but requires none of its outputs: "
                         "order alone is not a cause",
                         f"list the indices of {dep.step}'s expected_outputs this step needs, "
                         "or remove the dependency")]
    count = len(predecessor.expected_outputs)
    return [_finding(plan, step, "dependency_output_out_of_range", f"{tail}.requires",
                     f"requires output {wanted} of {dep.step}, which has {count} outputs",
                     f"use indices 0..{count - 1} of {dep.step}'s expected_outputs")
            for wanted in dep.requires if wanted >= count]


def _cycle_findings(plan: Plan) -> list[Finding]:
    """One finding per cycle (reported on its first step in plan order)."""
    edges = {s.id: [d.step for d in s.dependencies if d.step != s.id and plan.step(d.step)]
             for s in plan.steps}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in edges[node]:
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for step in plan.steps:
        if step.id not in state:
            visit(step.id, [step.id])
    found = []
    for cycle in cycles:
        first = plan.step(cycle[0])
        if first is None:
            raise ValueError(f"dependency cycle through unknown step {cycle[0]!r}")
        found.append(_finding(plan, first, "dependency_cycle", ".dependencies",
                              "is part of a dependency cycle: " + " -> ".join(cycle),
                              "steps that need each other are one increment: merge them, "
                              "or reslice so one completes first"))
    return found


def _finding(plan: Plan, step: PlanStep, code: str, tail: str, message: str,
             hint: str) -> Finding:
    return Finding(code=code, step=step.id, where=step_where(plan, step, tail),
                   message=f"step {step.id} {message}", hint=hint)


def unmet_dependencies(step: PlanStep, complete: Collection[str]) -> list[str]:
    """The steps `step` depends on that are not complete yet (it may start when none is)."""
    done = set(complete)
    return [dependency.step for dependency in step.dependencies if dependency.step not in done]
