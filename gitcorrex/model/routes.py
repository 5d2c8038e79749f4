"""The routes a plan or a step takes when it may not simply go on (seed 003 §4.3).

Exactly the seed's five names and no others: `reject` (an invalid candidate before
execution), `replan-required` (invalid slicing found after execution started),
`split-required` (the corrective authority proves the task boundary must split),
`stop-escalate` (no permitted authority can decide, or the no-progress arbiter stopped a
step) and `continue-fix` (a valid step with defective code). Ledgers written before the
names were fixed recorded an exhausted step as `escalate`; it is read as `stop-escalate`.
"""

from __future__ import annotations

from enum import Enum

LEGACY_NAMES = {"escalate": "stop-escalate"}


class Route(str, Enum):
    """Where a plan or step goes next when it is not accepted as it is."""

    REJECT = "reject"
    REPLAN_REQUIRED = "replan-required"
    SPLIT_REQUIRED = "split-required"
    STOP_ESCALATE = "stop-escalate"
    CONTINUE_FIX = "continue-fix"


def read_route(value: object) -> object:
    """A recorded route name as this version spells it (`escalate` → `stop-escalate`)."""
    return LEGACY_NAMES.get(value, value) if isinstance(value, str) else value
