"""Kind-specific fields of the session transitions: steps, pauses, resumption, completion.

A session has no store but its events: each transition is one compare-and-swap append on
the session's revision (its event count), and `replay/session.py` rebuilds the whole state
from these records. A pause carries its provenance; a semantic terminal pause carries the
receipt it was admitted on, and a pause whose provenance does not fit its kind is refused
here, so a malformed one in the ledger fails closed when folded.
"""

from __future__ import annotations

from enum import Enum

from pydantic import Field, StrictInt, field_validator, model_validator

from gitcorrex.model.events import Oid
from gitcorrex.model.record import EventPayload, Record, SparsePayload
from gitcorrex.model.routes import Route, read_route
from gitcorrex.model.session_claims import AdmissionReceipt, Bounded, Named


class Transition(str, Enum):
    """Transitions admitted by compare-and-swap on the session revision."""

    STEP_START = "step_start"
    PAUSE = "pause"
    RESUME = "resume"
    REPLAN = "replan"
    ADOPT = "adopt"
    REVIEW = "review"


class PauseCause(str, Enum):
    """Why a session stopped; each cause has its own way out (`git correx resume`)."""

    SEMANTIC_TERMINAL = "semantic_terminal"
    ADMINISTRATIVE = "administrative"
    CONTROLLER_LIMIT = "controller_limit"
    ORCHESTRATION_SETTLEMENT = "orchestration_settlement"


class TransitionAdmittedFields(EventPayload):
    """`transition_admitted`: which transition, from which revision, on which state key."""

    KIND = "transition_admitted"

    transition: Transition
    from_revision: StrictInt = Field(ge=0)
    baseline: Oid | None
    checks: list[Named]


class StepStartedFields(EventPayload):
    """`step_started`: the writes the hooks enforce while the step (the envelope's `step`,
    of the envelope's `stage`) is active. `baseline` is where its writes begin: the state
    the last settlement left (or an operator adopted); `writes_before_start` the paths
    changed since then, inside its writes, that count as its writes (the first 200; absent
    when none)."""

    KIND = "step_started"
    OMIT_WHEN_NONE = frozenset({"writes_before_start"})

    writes: list[Named]
    expectation_docs: bool
    baseline: Oid
    writes_before_start: list[Bounded] | None = None


class StepVerifiedFields(EventPayload):
    """`step_verified`: the envelope's step is canonical; `observation` is None for no build
    claim. `gates`: the stage's gate events the settlement passed on (run or reused)."""

    KIND = "step_verified"
    OMIT_WHEN_NONE = frozenset({"gates"})

    observation: str | None
    build_claim: bool
    attempts: StrictInt = Field(ge=0)
    gates: list[str] | None = None


class StepAwaitingReviewFields(EventPayload):
    """`step_awaiting_review`: every part of the envelope's step passed, but its plan is
    guarded (seed 003 INV-6): it becomes `step_verified` only when another identity
    approves it (`step review`). The fields are what the `step_verified` will carry, and
    `max_attempts` the budget in force, which a rejection counts against."""

    KIND = "step_awaiting_review"
    OMIT_WHEN_NONE = frozenset({"gates"})

    observation: str | None
    build_claim: bool
    attempts: StrictInt = Field(ge=1)
    max_attempts: StrictInt = Field(ge=1)
    gates: list[str] | None = None


class ReviewDecision(str, Enum):
    """What a reviewer decided about a step awaiting review."""

    APPROVE = "approve"
    REJECT = "reject"


class StepReviewedFields(EventPayload):
    """`step_reviewed`: a git identity other than the step's worker decided about the
    settlement `settlement` (the envelope's step's `step_awaiting_review`); the same append
    records the `step_verified` (approve) or `step_failed` (reject) it leads to."""

    KIND = "step_reviewed"

    decision: ReviewDecision
    reason: Named
    settlement: str
    name: Bounded | None
    email: Bounded | None


class StepFailedFields(EventPayload):
    """`step_failed` (of the envelope's step): the failing part's output fed back verbatim
    (bounded tail + the full output's blob). `observation` is the failing part's event
    (write evidence, gate or observation); `part` names the part (`write_evidence`,
    `gate:<name>`, `checks`); a write-evidence failure adds its `rule` and `paths`."""

    KIND = "step_failed"
    OMIT_WHEN_NONE = frozenset({"part", "rule", "paths"})

    observation: str
    result: Named
    reason: Bounded | None
    feedback: Bounded
    output_blob: Oid | None
    attempts: StrictInt = Field(ge=1)
    max_attempts: StrictInt = Field(ge=1)
    route: Route
    part: Named | None = None
    rule: Named | None = None
    paths: list[Bounded] | None = None

    @field_validator("route", mode="before")
    @classmethod
    def _legacy_route(cls, value: object) -> object:
        return read_route(value)  # `escalate` in ledgers written before the seed's names


class Escalation(Record):
    """What the no-progress arbiter saw when it stopped a step."""

    step: Named
    attempts: StrictInt = Field(ge=1)
    max_attempts: StrictInt = Field(ge=1)
    last_failure: str


class SessionPausedFields(SparsePayload):
    """`session_paused`: the cause, and for its kind the receipt or the escalation."""

    KIND = "session_paused"

    cause: PauseCause
    reason: Bounded
    receipt: AdmissionReceipt | None = None
    escalation: Escalation | None = None

    @model_validator(mode="after")
    def _provenance_fits(self) -> SessionPausedFields:
        semantic = self.cause is PauseCause.SEMANTIC_TERMINAL
        if semantic != (self.receipt is not None):
            raise ValueError("a semantic_terminal pause needs a receipt; no other pause has one")
        if (self.cause is PauseCause.CONTROLLER_LIMIT) != (self.escalation is not None):
            raise ValueError("a controller_limit pause needs an escalation; no other has one")
        return self


class SessionResumedFields(EventPayload):
    """`session_resumed`: which pause ends; `budget` is a raised max_attempts, recorded."""

    KIND = "session_resumed"

    cause: PauseCause | None
    reason: Bounded
    budget: StrictInt | None = Field(default=None, ge=1)


class SessionCompletedFields(EventPayload):
    """`session_completed`: every step of the plan is verified; the final baseline."""

    KIND = "session_completed"

    plan: Oid
    steps: list[Named]
    baseline: Oid
