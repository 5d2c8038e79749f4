"""Everything a grounding check reads: the plan, the profile, the tree, the symbol index.

The symbol index and the text search over unparsed sources are lazy: a plan that names
no symbol never parses a blob. `finding` bounds what a finding carries, so one plan
cannot write an unbounded ledger line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property

from gitcorrex.model.canonical import bound_text
from gitcorrex.model.grounding import (
    MAX_CANDIDATES,
    MAX_PATHS,
    Check,
    GroundingFinding,
    Route,
    Status,
)
from gitcorrex.model.plan import Plan, PlanStep
from gitcorrex.model.profile import Profile
from gitcorrex.model.profile_references import NO_BUILD_CLAIM
from gitcorrex.plan.grounding.tree_view import TreeView, parse_path_ref
from gitcorrex.symbols.index import SymbolIndex


@dataclass
class GroundingInput:
    """One grounding's inputs; `symbols()` builds the index on first use."""

    plan: Plan
    profile: Profile
    view: TreeView
    load_symbols: Callable[[], SymbolIndex]
    mentions: Callable[[str], list[str]]
    _symbols: list[SymbolIndex] = field(default_factory=list)

    def symbols(self) -> SymbolIndex:
        if not self._symbols:
            self._symbols.append(self.load_symbols())
        return self._symbols[0]

    @cached_property
    def steps(self) -> dict[str, PlanStep]:
        return {step.id: step for step in self.plan.steps}

    def predecessors(self, step_id: str) -> list[str]:
        """Every step `step_id` depends on, directly or not (cycles are tolerated)."""
        seen: set[str] = set()
        pending = [step_id]
        while pending:
            step = self.steps.get(pending.pop())
            for dependency in step.dependencies if step else []:
                if dependency.step not in seen and dependency.step in self.steps:
                    seen.add(dependency.step)
                    pending.append(dependency.step)
        seen.discard(step_id)
        return sorted(seen)

    @cached_property
    def writers(self) -> dict[str, list[str]]:
        """Literal path → the steps that declare writing it, in plan order."""
        found: dict[str, list[str]] = {}
        for step in self.plan.steps:
            for text in step.writes:
                ref = parse_path_ref(text)
                if ref.problem is None and not ref.is_pattern:
                    found.setdefault(ref.path, []).append(step.id)
        return found

    def commands_of(self, check: str, *, setup: bool = True) -> list[str] | None:
        """The profile commands a check runs (its setup first, unless `setup` is False:
        a setup is never itself a pass); None when the check names no profile entry."""
        if check in self.profile.commands:
            return [check]
        expectation = self.profile.expectations.get(check)
        if expectation is not None:
            first = [expectation.setup] if setup and expectation.setup else []
            return [*first, *expectation.commands]
        return [] if check == NO_BUILD_CLAIM else None


def finding(check: Check, step: str | None, subject: str, status: Status, route: Route, *,
            paths: Iterable[str] = (), candidates: Iterable[str] = (),
            detail: str | None = None) -> GroundingFinding:
    """A finding with every outside string bounded and its lists capped."""
    shown = [bound_text(p) for p in dict.fromkeys(paths)]
    more = len(shown) - MAX_PATHS
    if more > 0:
        detail = f"{detail + '; ' if detail else ''}{more} more path(s) not listed"
    return GroundingFinding(
        check=check, step=step, subject=bound_text(subject), status=status, route=route,
        paths=shown[:MAX_PATHS],
        candidates=[bound_text(c) for c in dict.fromkeys(candidates)][:MAX_CANDIDATES],
        detail=bound_text(detail) if detail else None)
