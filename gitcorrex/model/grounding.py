"""Kind-specific fields of `plan_grounding_evaluated`: a plan's assumptions against a state.

Every finding says what was checked (`check`, `subject`, `step`), what the state tree
proves about it (`status`: present, absent, ambiguous, unknown — never present without
proof), and what it asks for (`route`). The verdict is the most severe route, mapped into
the seed's three verdicts: `reject` and `return_to_architect` both return the plan to the
architect (a rejected plan can only be replaced, never clarified into passing), then
`clarification_required`, else `pass`.
"""

from __future__ import annotations

from enum import Enum

from pydantic import Field

from gitcorrex.model.events import Oid
from gitcorrex.model.record import EventPayload, Record

MAX_PATHS = 10
MAX_CANDIDATES = 5


class Check(str, Enum):
    WRITE = "write"
    PATH = "path"
    SYMBOL = "symbol"
    PREREQUISITE = "prerequisite"
    ORDERING = "ordering"


class Status(str, Enum):
    """What the state tree (and its symbol index) proves about a subject."""

    PRESENT = "present"
    ABSENT = "absent"
    AMBIGUOUS = "ambiguous"
    UNKNOWN = "unknown"


class Route(str, Enum):
    """What one finding asks for; `pass` = nothing."""

    PASS = "pass"
    REJECT = "reject"
    RETURN_TO_ARCHITECT = "return_to_architect"
    CLARIFICATION_REQUIRED = "clarification_required"


class Verdict(str, Enum):
    """Only `pass` lets `plan lock` proceed, and only on the same state key."""

    PASS = "pass"
    RETURN_TO_ARCHITECT = "return_to_architect"
    CLARIFICATION_REQUIRED = "clarification_required"


class GroundingFinding(Record):
    """One checked assumption. `paths`: where it was found (at most 10, sorted);
    `candidates`: what the architect may have meant (at most 5, best first)."""

    check: Check
    step: str | None
    subject: str = Field(max_length=1024)
    status: Status
    route: Route
    paths: list[str] = Field(default_factory=list, max_length=MAX_PATHS)
    candidates: list[str] = Field(default_factory=list, max_length=MAX_CANDIDATES)
    detail: str | None = Field(default=None, max_length=1024)


class GroundingFields(EventPayload):
    """`plan_grounding_evaluated` beyond the envelope (whose `state_key` is the tree)."""

    KIND = "plan_grounding_evaluated"

    plan: Oid
    plan_id: str
    verdict: Verdict
    findings: list[GroundingFinding]
    profile: Oid
    index: Oid | None
    extractors: dict[str, str]


_SEVERITY = {Route.PASS: 0, Route.CLARIFICATION_REQUIRED: 1, Route.RETURN_TO_ARCHITECT: 2,
             Route.REJECT: 2}


def verdict_for(findings: list[GroundingFinding]) -> Verdict:
    """The most severe route among the findings, as a verdict."""
    worst = max((_SEVERITY[finding.route] for finding in findings), default=0)
    return [Verdict.PASS, Verdict.CLARIFICATION_REQUIRED, Verdict.RETURN_TO_ARCHITECT][worst]
