"""The one settlement path of every step that runs a command, in order, each part recorded:

1. write evidence: what changed since the step started is inside its `writes`
   (session/write_evidence.py; recorded as a `tool_call_assessed` when it objects), and
   the tests of the step's baseline are not weakened, or a person accepted it
   (session/test_integrity.py; each finding recorded as a `test_integrity_weakened`);
2. the stage's gates on this state key (gates/run_gates.py, each gate records its fact; a
   clean static analysis already recorded for this key and profile is reused);
3. the step's own plan `checks`, after the stage's `build_expectation` when the step makes
   a build claim, de-duplicated (session/step_commands.py), observed as one
   `workspace_verification_observed` bound to the step and its writes — or, for a step
   without a build claim (a docs stage, no writes), as `step_checks_observed`, which no
   reader counts as a pass of the tree.

Every part reads the profile the session is locked under (session/bound_profile.py), never
the work tree's.

The first part that fails stops the settlement: one `step_failed` naming the part, with
its output verbatim, and one attempt used. Only all passing gives `step_verified`. Every
part judges the same state key; if the workspace moves between them the step is left
unsettled (exit 3) rather than settled on evidence about two different states.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex import ledger
from gitcorrex.gates.outcome import GateOutcome
from gitcorrex.gates.run_gates import GateRequest, run_gates
from gitcorrex.git import Repository, StateProbe
from gitcorrex.model.event_kinds import payload_of
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.session_events import (
    SessionCompletedFields,
    SessionPausedFields,
    StepAwaitingReviewFields,
    StepFailedFields,
    StepVerifiedFields,
)
from gitcorrex.model.verification import CommandRecord, Result, StopReason, VerificationFields
from gitcorrex.profiles.selection import Selection
from gitcorrex.session.bound_profile import BoundProfile
from gitcorrex.session.settlement_events import Failure, Settled, settle_drafts
from gitcorrex.session.state import state_at
from gitcorrex.session.step_baseline import step_baseline
from gitcorrex.session.test_integrity import weakened_tests
from gitcorrex.session.write_evidence import check_writes, evidence_draft
from gitcorrex.verify.outcome import VerifyOutcome
from gitcorrex.verify.request import VerifyRequest
from gitcorrex.verify.selection import profile_selection

if TYPE_CHECKING:
    from gitcorrex.session.settled_step import ActiveStep

Observe = Callable[[VerifyRequest], VerifyOutcome]


@dataclass(frozen=True)
class Settlement:
    """One settlement: the step, where it records, and how it observes."""

    repo: Repository
    active: ActiveStep
    request: VerifyRequest
    env: Mapping[str, str]
    artifacts: Mapping[str, Path]
    clock: Callable[[], datetime]
    provenance: Provenance
    probe: StateProbe

    def record(self, drafts: Sequence[ledger.EventDraft]) -> list[RecordedEvent]:
        return ledger.append_events(self.repo, list(drafts), now=self.clock(),
                                    provenance=self.provenance)

    def settle(self, settled: Settled) -> list[RecordedEvent]:
        def drafts(view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
            return settle_drafts(state_at(view, self.active.session), self.active,
                                 settled)
        return ledger.append_events(self.repo, drafts, now=self.clock(),
                                    provenance=self.provenance)


def settle_step(s: Settlement, bound: BoundProfile, commands: Selection, run: Observe, *,
                key: str, claim: bool) -> VerifyOutcome:
    """Write evidence → gates → checks (and build expectation) → step_verified | step_failed,
    all on the state `key`, under the session's profile `bound`.

    `commands` are the step's (session/step_commands.py), resolved before anything is
    recorded; `claim` says whether they include its stage's build expectation."""
    step, profile = s.active.step, bound.profile
    selection = profile_selection(bound.blob, commands.model_dump(mode="json"),
                                  profile.defaults.output_cap)
    expectation = commands.expectation
    begins = step_baseline(s.repo, s.active.session, step.id)
    evidence = check_writes(s.repo, step, baseline=begins, state_key=key)
    if not evidence.passed:
        event = s.record([evidence_draft(evidence, session=s.active.session, step=step)])[0]
        failure = Failure(event=event.id, part="write_evidence", result="fail", reason=None,
                          feedback=evidence.feedback(), output_blob=None,
                          rule="PATH_OUTSIDE_MANIFEST", paths=evidence.outside)
        summary = (f"fail: step {step.id} changed {len(evidence.outside)} path(s) outside "
                   f"its writes (PATH_OUTSIDE_MANIFEST): {', '.join(evidence.outside[:5])}")
        return _failed(s, key, expectation, event, failure, summary)
    weakened = weakened_tests(s.repo, baseline=begins, state=key, clock=s.clock,
                              provenance=s.provenance)
    if weakened is not None:
        return _failed(s, key, expectation, None, *weakened)
    gates = _gates(s, bound)
    if gates is not None and gates.state_key != key:
        return _moved(expectation, key, gates.state_key)
    if gates is not None and gates.failed is not None:
        return _gate_failed(s, key, expectation, gates)
    outcome = run(s.request.but(stage=step.stage, step=step.id, selection=selection,
                                checks_only=not claim))
    if outcome.event is None:
        return outcome
    if outcome.state_key != key:
        return _moved(expectation, key, outcome.state_key)
    gate_ids = [r.event.id for r in (gates.results if gates else []) if r.event is not None]
    if outcome.result is Result.PASS:
        return _said(outcome, s.settle(Settled(key, outcome.event.id, gate_ids,
                                               build_claim=claim)))
    failure = Failure(event=outcome.event.id, part=_failing_part(outcome.event),
                      result=outcome.result.value if outcome.result else "unavailable",
                      reason=_reason(outcome.event), feedback=_feedback(outcome),
                      output_blob=_blob(outcome.event))
    return _said(outcome, s.settle(Settled(key, None, gate_ids, failure)))


def _gates(s: Settlement, bound: BoundProfile) -> GateOutcome | None:
    """The stage's gates on this state key, under the session's profile; None when the
    stage configures none."""
    policy = bound.profile.stages.get(s.active.step.stage)
    if policy is None or not (policy.produces or policy.ground_references
                              or policy.brief_echo or policy.static_analysis):
        return None
    request = GateRequest(s.active.step.stage, s.active.session, s.artifacts, reuse=True,
                          profile=(bound.profile, bound.blob))
    return run_gates(s.repo, request, env=s.env, clock=s.clock, provenance=s.provenance,
                     probe=s.probe)


def _gate_failed(s: Settlement, key: str, expectation: str,
                 gates: GateOutcome) -> VerifyOutcome:
    failed = gates.failed
    if failed is None:
        raise ValueError("_gate_failed called for gates that passed")
    feedback = (gates.feedback or failed.summary.encode()).decode("utf-8", "replace")
    event_id = failed.event.id if failed.event is not None else key
    failure = Failure(event=event_id, part=f"gate:{failed.gate}", result="fail", reason=None,
                      feedback=feedback, output_blob=None)
    summary = f"fail: gate {failed.gate} of stage {gates.stage!r}: {failed.summary}"
    return _failed(s, key, expectation, failed.event, failure, summary)


def _failed(s: Settlement, key: str, expectation: str, event: RecordedEvent | None,
            failure: Failure, summary: str) -> VerifyOutcome:
    """Settle a failure found before any command ran; the failing part's text is output."""
    outcome = VerifyOutcome(expectation, key, event, None, Result.FAIL, summary,
                            failure.feedback.encode(), streamed=False)
    return _said(outcome, s.settle(Settled(key, None, [], failure)))


def _moved(expectation: str, key: str, now: str) -> VerifyOutcome:
    return VerifyOutcome(expectation, now, None, None, Result.UNAVAILABLE,
                         f"unavailable: the workspace changed during the settlement "
                         f"({key[:12]} -> {now[:12]}); the step is not settled: stop "
                         "whatever writes to it and run `git correx verify` again")


def _said(outcome: VerifyOutcome, events: list[RecordedEvent]) -> VerifyOutcome:
    said = "\n".join(describe(event) for event in events) or \
        "the step was settled by another process; nothing more recorded"
    return outcome._replace(summary=f"{outcome.summary}\n{said}")


def describe(event: RecordedEvent) -> str:
    """One line per settling event, for the terminal."""
    step = event.step
    match payload_of(event):
        case StepVerifiedFields(build_claim=False):
            return (f"step {step} verified by its own checks (no build claim: run `git correx "
                    "verify` before the next step starts)")
        case StepVerifiedFields():
            return f"step {step} verified"
        case StepAwaitingReviewFields():
            return (f"step {step} passed and awaits review (guarded plan): another identity "
                    f"runs `git correx step review {step} --approve|--reject --reason TEXT`")
        case StepFailedFields(part=part, attempts=attempts, max_attempts=most, route=route):
            return f"step {step} failed at {part} (attempt {attempts} of {most}): {route.value}"
        case SessionPausedFields(cause=cause, reason=reason):
            return f"session paused ({cause.value}): {reason}"
        case SessionCompletedFields():
            return "session completed: every step is verified"
    return event.kind


def _feedback(outcome: VerifyOutcome) -> str:
    """The failing command's output, verbatim (its end holds the error)."""
    if outcome.failing_output:
        return outcome.failing_output.decode("utf-8", "replace")
    return outcome.summary


def _reason(event: RecordedEvent) -> str | None:
    observed = payload_of(event)
    if isinstance(observed, VerificationFields) and observed.reason is not None:
        return observed.reason.value
    return None


def _failing_part(event: RecordedEvent) -> str:
    """`check:<command>` for the command that stopped the run; `checks` when none ran."""
    ran = _ran(event)
    return f"check:{ran[-1].name}" if ran else "checks"


def _ran(event: RecordedEvent) -> list[CommandRecord]:
    observed = payload_of(event)
    listed = observed.commands if isinstance(observed, VerificationFields) else []
    return [c for c in listed if c.stop_reason is not StopReason.SKIPPED]


def _blob(event: RecordedEvent) -> str | None:
    """The full output blob of the command that stopped the run (the last one that ran)."""
    ran = _ran(event)
    output = ran[-1].output if ran else None
    return output.blob if output is not None else None
