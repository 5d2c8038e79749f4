"""Results of the workflow commands (`step start`, `gate`, `plan validate`, `plan ground`),
each exactly that command's `--json` document, which the command prints from this model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.grounding import GroundingFields
from gitcorrex.model.plan_events import PlanValidatedFields
from gitcorrex.model.record import Record

if TYPE_CHECKING:
    from gitcorrex.gates.outcome import GateOutcome
    from gitcorrex.plan.grounding.ground import GroundingOutcome
    from gitcorrex.plan.validate import ValidationOutcome
    from gitcorrex.session.start import StepStart


class StepStarted(Record):
    """`git correx step start --json`: the admitted transition and the events it recorded."""

    session: str
    step: str
    state_key: str
    revision: int | None
    events: list[RecordedEvent]

    @classmethod
    def of(cls, started: StepStart) -> StepStarted:
        return cls(session=started.session, step=started.step, state_key=started.state_key,
                   revision=started.events[-1].seq, events=list(started.events))


class GateRun(Record):
    """One gate that ran: passed or not, its one-line summary, its recorded event."""

    gate: str
    passed: bool
    summary: str
    event: RecordedEvent | None


class GateResult(Record):
    """`git correx gate --json`: every gate that ran in order; `feedback` is the failing
    gate's output, verbatim (decoded, undecodable bytes replaced)."""

    stage: str
    state_key: str
    passed: bool
    failed_gate: str | None
    summary: str
    feedback: str | None
    gates: list[GateRun]

    @classmethod
    def of(cls, outcome: GateOutcome) -> GateResult:
        failed = outcome.failed
        return cls(stage=outcome.stage, state_key=outcome.state_key, passed=failed is None,
                   failed_gate=failed.gate if failed else None, summary=outcome.summary,
                   feedback=None if outcome.feedback is None
                   else outcome.feedback.decode("utf-8", "replace"),
                   gates=[GateRun(gate=r.gate, passed=r.passed, summary=r.summary,
                                  event=r.event) for r in outcome.results])


class PlanValidation(PlanValidatedFields):
    """`git correx plan validate --json`: the recorded `plan_validated` fields, whether the
    plan was accepted, and the event's id."""

    accepted: bool
    event: str

    @classmethod
    def of(cls, outcome: ValidationOutcome) -> PlanValidation:
        return cls(**dict(outcome.fields), accepted=outcome.accepted, event=outcome.event.id)


class PlanGrounding(GroundingFields):
    """`git correx plan ground --json`: the recorded `plan_grounding_evaluated` fields, the
    state key they were judged on, the symbol index's counters, and the event."""

    state_key: str
    index_stats: dict[str, Any] | None
    event: RecordedEvent

    @classmethod
    def of(cls, outcome: GroundingOutcome) -> PlanGrounding:
        stats = outcome.stats
        return cls(**dict(outcome.fields), state_key=outcome.state_key,
                   index_stats=None if stats is None else dict(vars(stats)),
                   event=outcome.event)
