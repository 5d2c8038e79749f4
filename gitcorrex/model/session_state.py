"""The state of one session as folded from its events: what `session status` and `replay
--session` both print, byte for byte the same JSON.

Nothing here knows the workspace: whether the baseline is still valid *now* is a question
about a work tree, which replay never asks; `session status` answers it next to this.

Plain frozen dataclasses, not pydantic records: every agent tool call and every commit in a
session asks for this state (`session/state.py`), mostly from the fold stored for the
session's current note, and building it from that JSON must not cost pydantic and the
event models (~80 ms). `as_json` and `from_json` are the two directions; pydantic still
describes and serializes it where a result embeds it (the Python API, the MCP server).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class StepStatus(str, Enum):
    """`blocked`: escalated by the arbiter, or waiting on an open workspace precondition;
    `awaiting_review`: a guarded plan's step that passed its settlement and waits for
    another identity's review (it stays the active step until then)."""

    PENDING = "pending"
    ACTIVE = "active"
    AWAITING_REVIEW = "awaiting_review"
    VERIFIED = "verified"
    FAILED = "failed"
    BLOCKED = "blocked"


class SessionStatus(str, Enum):
    """`invalid`: a session event in the ledger is malformed; nothing may advance (fail closed)."""

    ACTIVE = "active"
    PAUSED = "paused"
    COMPLETED = "completed"
    INVALID = "invalid"


@dataclass(frozen=True)
class StepState:
    """One step: its status, attempts so far, the budget in force and the last feedback."""

    id: str
    status: StepStatus
    attempts: int
    max_attempts: int | None
    verified_by: str | None
    build_claim: bool | None
    last_failure: str | None
    feedback: str | None


@dataclass(frozen=True)
class RuntimeActor:
    """Who works on a step, as its `step_started` recorded it: git identity, host, and the
    runtime's name (`CORREX_RUNTIME`, None when unnamed). Not the process id: every hook
    call and command is a process of its own, so only these stay the same across them."""

    name: str | None
    email: str | None
    host: str
    runtime_name: str | None

    def __str__(self) -> str:
        named = f"runtime {self.runtime_name!r}" if self.runtime_name else "no runtime name"
        return f"{self.name or '?'} <{self.email or '?'}> on {self.host}, {named}"


@dataclass(frozen=True)
class Baseline:
    """The known-good state: the latest pass of the session (or the locked state before it).

    `source` is `observation`, `lock` (verified by the lock's passing observation) or
    `lock_unverified` (locked with `--baseline-unverified`: `reason` says why). A step
    without a build claim never moves it (seed 000: it does not manufacture one).
    """

    state_key: str
    source: str
    event: str
    expectation: str | None
    commands: list[str]
    changed_paths: list[str]
    changed_paths_omitted: int
    reason: str | None = None


@dataclass(frozen=True)
class Pause:
    """Why the session stopped; `cause` is `unattributed` for a pause older than provenance."""

    cause: str
    reason: str
    event: str
    step: str | None
    receipt: dict[str, object] | None
    escalation: dict[str, object] | None


@dataclass(frozen=True)
class OpenPrecondition:
    """A build-critical path reported missing and not clarified since."""

    path: str
    step: str | None
    source: str | None
    named_by: str | None
    attempts: int | None
    event: str


@dataclass(frozen=True)
class FoldProblem:
    """A session event that could not be taken at face value; the session fails closed."""

    event: str
    seq: int | None
    kind: str
    reason: str


@dataclass(frozen=True)
class SessionState:
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
    active_actor: RuntimeActor | None  # who started the active step
    steps: list[StepState]
    baseline: Baseline | None
    pause: Pause | None
    preconditions: list[OpenPrecondition]
    clarified: list[str]
    problems: list[FoldProblem]
    profile: str | None  # the blob of the profile the session is locked under, if recorded
    settled: str | None  # the state the last settlement left: where the next step's writes begin
    verified: list[str]  # state keys with a passing build observation under `profile`

    def is_verified(self, state_key: str) -> bool:
        """Whether `state_key` carries a passing observation of a build expectation under
        the session's profile (the lock's, a settlement's, or `verify` in the session)."""
        return state_key in self.verified

    def step(self, step_id: str) -> StepState | None:
        """The step called `step_id` in the current plan, or None."""
        return next((s for s in self.steps if s.id == step_id), None)

    @property
    def awaiting_review(self) -> str | None:
        """The active step when it passed its settlement and awaits review; else None."""
        step = self.step(self.active_step) if self.active_step is not None else None
        return step.id if step is not None and step.status is StepStatus.AWAITING_REVIEW \
            else None

    def with_problems(self, more: list[FoldProblem]) -> SessionState:
        """The same state with `more` problems: a session that has any is invalid."""
        if not more:
            return self
        return replace(self, problems=[*self.problems, *more], status=SessionStatus.INVALID)

    def as_json(self) -> dict[str, Any]:
        """The JSON document `replay --session` prints as `state` (fields in order)."""
        return _json(self)

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> SessionState:
        """The state `as_json` gave (a stored fold); KeyError/TypeError/ValueError when
        the document is not one."""
        steps = [StepState(**{**step, "status": StepStatus(step["status"])})
                 for step in document["steps"]]
        baseline, pause = document["baseline"], document["pause"]
        actor = document["active_actor"]
        return cls(**{
            **document, "status": SessionStatus(document["status"]), "steps": steps,
            "active_actor": None if actor is None else RuntimeActor(**actor),
            "baseline": None if baseline is None else Baseline(**baseline),
            "pause": None if pause is None else Pause(**pause),
            "preconditions": [OpenPrecondition(**p) for p in document["preconditions"]],
            "problems": [FoldProblem(**p) for p in document["problems"]]})


def _json(value: Any) -> Any:
    """Dataclasses as objects (fields in declaration order), enums as their values."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, list):
        return [_json(item) for item in value]
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _json(getattr(value, f.name)) for f in fields(value)}
    return value
