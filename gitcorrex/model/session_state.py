"""The state of one session as folded from its events: what `session status` and `replay
--session` both print, byte for byte the same JSON.

Nothing here knows the workspace: whether the baseline is still valid *now* is a question
about a work tree, which replay never asks; `session status` answers it next to this.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from gitcorrex.model.record import Record


class StepStatus(str, Enum):
    """`blocked`: escalated by the arbiter, or waiting on an open workspace precondition."""

    PENDING = "pending"
    ACTIVE = "active"
    VERIFIED = "verified"
    FAILED = "failed"
    BLOCKED = "blocked"


class SessionStatus(str, Enum):
    """`invalid`: a session event in the ledger is malformed; nothing may advance (fail closed)."""

    ACTIVE = "active"
    PAUSED = "paused"
    COMPLETED = "completed"
    INVALID = "invalid"


class StepState(Record):
    """One step: its status, attempts so far, the budget in force and the last feedback."""

    id: str
    status: StepStatus
    attempts: int
    max_attempts: int | None
    verified_by: str | None
    build_claim: bool | None
    last_failure: str | None
    feedback: str | None


class Baseline(Record):
    """The known-good state: the latest pass of the session (or the locked state before it).

    `source` is `observation`, `no_build_claim`, `lock` (verified by the lock's passing
    observation) or `lock_unverified` (locked with `--baseline-unverified`: `reason` says why).
    """

    state_key: str
    source: str
    event: str
    expectation: str | None
    commands: list[str]
    changed_paths: list[str]
    changed_paths_omitted: int
    reason: str | None = None


class Pause(Record):
    """Why the session stopped; `cause` is `unattributed` for a pause older than provenance."""

    cause: str
    reason: str
    event: str
    step: str | None
    receipt: dict[str, Any] | None
    escalation: dict[str, Any] | None


class OpenPrecondition(Record):
    """A build-critical path reported missing and not clarified since."""

    path: str
    step: str | None
    source: str | None
    named_by: str | None
    attempts: int | None
    event: str


class FoldProblem(Record):
    """A session event that could not be taken at face value; the session fails closed."""

    event: str
    seq: int | None
    kind: str
    reason: str


class SessionState(Record):
    """Everything the session's events say, folded by `replay.session.fold_session`."""

    session: str
    exists: bool
    status: SessionStatus
    plan: str | None
    plan_id: str | None
    plans: list[str]
    revision: int
    active_step: str | None
    active_writes: list[str]
    steps: list[StepState]
    baseline: Baseline | None
    pause: Pause | None
    preconditions: list[OpenPrecondition]
    clarified: list[str]
    problems: list[FoldProblem]

    def step(self, step_id: str) -> StepState | None:
        """The step called `step_id` in the current plan, or None."""
        return next((s for s in self.steps if s.id == step_id), None)
