"""`git correx pause --claim CLAIM.json`: admit a semantic terminal pause on a trusted fact.

The order is the seed's (004): the claim must come from the runtime actor that started the
active step (runtime_actor.py, else exit 1); it must match an edge the plan declares
(edges.py, else `not_declared`); snapshot the context (session, revision, active step,
state key, ledger tip); let the trusted provider observe outside the append loop; take
the decision time *after* it ran and check freshness against it; compare the value
exactly; then, inside the compare-and-swap, require the context to be unchanged before
writing the pause with its bounded receipt. Every outcome but `confirmed` writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

from gitcorrex import ledger
from gitcorrex.errors import ConfigError, RevisionConflictError
from gitcorrex.git import Repository, compute_state
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.session_claims import (
    AdmissionReceipt,
    BlockerClaim,
    ClaimClass,
    ClaimOutcome,
    ProviderObservation,
)
from gitcorrex.model.session_events import PauseCause, SessionPausedFields, Transition
from gitcorrex.model.session_state import SessionState
from gitcorrex.session.edges import declaring_step, not_declared
from gitcorrex.session.exact_equality import exactly_equal, load_exact_json
from gitcorrex.session.pause import pause_draft, refuse_if_not_running
from gitcorrex.session.plan_source import session_plan
from gitcorrex.session.providers import BUILT_IN, ObserveContext, Provider
from gitcorrex.session.runtime_actor import refuse_foreign_actor
from gitcorrex.session.state import existing_state, state_at
from gitcorrex.session.transition import run_transition


@dataclass(frozen=True)
class ClaimDecision:
    """The outcome, why, what the provider saw, and the pause events when confirmed."""

    outcome: ClaimOutcome
    detail: str
    observation: ProviderObservation | None
    events: list[RecordedEvent]

    @property
    def conclusion(self) -> Conclusion:
        return Conclusion.OK if self.outcome is ClaimOutcome.CONFIRMED else Conclusion.CHECK_FAILED


def load_claim(path: Path) -> BlockerClaim:
    """The claim file, strictly: unknown keys, wrong types or oversized strings → exit 2."""
    try:
        data = load_exact_json(path.read_text(encoding="utf-8"))
        return BlockerClaim.model_validate(data)
    except (OSError, ValueError) as exc:
        first = exc.errors()[0] if isinstance(exc, ValidationError) else None
        where = ".".join(str(p) for p in first["loc"]) if first else ""
        message = f"{where}: {first['msg']}" if first else str(exc)
        raise ConfigError(f"{path}: {message}",
                          hint='write {"class", "provider", "subject", "fact", "expected"} '
                               "with strings of at most 1,024 characters") from None


def admit_claim(repo: Repository, session: str, claim: BlockerClaim, *,
                expect_revision: int | None, clock: Callable[[], datetime],
                provenance: Provenance,
                providers: Mapping[str, Provider] = BUILT_IN) -> ClaimDecision:
    """Decide the claim; record the semantic terminal pause only when it is confirmed."""
    read = existing_state(repo, session)
    refuse_if_not_running(read)
    refuse_foreign_actor(read, provenance, "a blocker claim")
    plan = session_plan(repo, read.plan)
    declared_by = declaring_step(plan, read, claim)
    if declared_by is None:
        return ClaimDecision(ClaimOutcome.NOT_DECLARED, not_declared(plan, read, claim),
                             None, [])
    if claim.claim_class is ClaimClass.USER_AUTHORITY:
        return ClaimDecision(ClaimOutcome.REQUIRES_USER_AUTHORITY, "no provider can grant user "
                             "authority: a person must decide", None, [])
    provider = providers.get(claim.provider)
    if provider is None:
        return ClaimDecision(ClaimOutcome.UNRESOLVED, f"no trusted provider {claim.provider!r} "
                             f"(built in: {', '.join(sorted(providers))})", None, [])
    context = _snapshot(repo, session, read, expect_revision)
    seen = provider.observe(ObserveContext(repo, session, context.state_key), claim)
    decided_at = clock()  # after the provider ran: freshness is judged now
    early = _judge(claim, seen, decided_at)
    if early is not None:
        return early
    if seen is None:  # _judge decides a claim nothing was observed for
        raise ValueError(f"claim {claim.subject!r}: judged without an observation")
    if compute_state(repo).state_key != context.state_key:
        raise _stale(session, "the workspace changed while the provider observed")
    receipt = AdmissionReceipt(
        claim_class=claim.claim_class, provider=claim.provider, subject=claim.subject,
        fact=claim.fact, expected=claim.expected, observations=[seen],
        decided_at=decided_at, revision=context.revision, context=context.digest(),
        declared_by=declared_by)
    events = _record_pause(repo, context, receipt, now=clock(), provenance=provenance)
    return ClaimDecision(ClaimOutcome.CONFIRMED, "confirmed: the session is paused "
                         "(semantic_terminal)", seen, events)


def _record_pause(repo: Repository, context: _Context, receipt: AdmissionReceipt, *,
                  now: datetime, provenance: Provenance) -> list[RecordedEvent]:
    """The pause with its receipt, only if the context is still the one observed."""
    fields = SessionPausedFields(
        cause=PauseCause.SEMANTIC_TERMINAL, receipt=receipt,
        reason=f"confirmed {receipt.provider}:{receipt.fact} = {receipt.expected!r} on "
               f"{receipt.subject[:12]} (edge declared by step {receipt.declared_by})"[:1024])

    def admit(state: SessionState, view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        if _Context.at(state, view, context.state_key) != context:
            raise _stale(context.session, "the session or the ledger moved since the "
                                          "provider observed")
        refuse_if_not_running(state)
        return [pause_draft(state, fields)]

    return run_transition(repo, context.session, transition=Transition.PAUSE, expected=None,
                          admit=admit, now=now, provenance=provenance)


@dataclass(frozen=True)
class _Context:
    """What must be unchanged between the observation and the write."""

    session: str
    revision: int
    active_step: str | None
    state_key: str
    tip: str | None

    @classmethod
    def at(cls, state: SessionState, view: ledger.LedgerView, state_key: str) -> _Context:
        return cls(state.session, state.revision, state.active_step, state_key, view.tip)

    def digest(self) -> str:
        return (f"session={self.session};revision={self.revision};step={self.active_step};"
                f"state={self.state_key};tip={self.tip}")


def _snapshot(repo: Repository, session: str, read: SessionState,
              expect_revision: int | None) -> _Context:
    view = ledger.LedgerView.at_tip(repo)
    state = state_at(view, session)
    expected = read.revision if expect_revision is None else expect_revision
    if state.revision != expected:
        raise _stale(session, f"the session is at revision {state.revision}, not {expected}")
    return _Context.at(state, view, compute_state(repo).state_key)


def _judge(claim: BlockerClaim, seen: ProviderObservation | None,
           decided_at: datetime) -> ClaimDecision | None:
    """unresolved (nothing observed, or too old) or contradicted; None when it holds."""
    if seen is None:
        return ClaimDecision(ClaimOutcome.UNRESOLVED, f"provider {claim.provider!r} observed "
                             f"no {claim.fact!r} for {claim.subject[:64]!r} in this session "
                             "on the current state key", None, [])
    age = (decided_at - seen.observed_at).total_seconds()
    if age > claim.max_age_s:
        return ClaimDecision(ClaimOutcome.UNRESOLVED, f"expired: the observation is {age:.0f} s "
                             f"old at the decision time, max_age_s is {claim.max_age_s}",
                             seen, [])
    if not exactly_equal(seen.value, claim.expected):
        return ClaimDecision(ClaimOutcome.CONTRADICTED, f"observed {seen.value!r}, claim "
                             f"expected {claim.expected!r} (exact comparison)", seen, [])
    return None


def _stale(session: str, why: str) -> RevisionConflictError:
    return RevisionConflictError(f"stale claim for session {session}: {why}; nothing was "
                                 "written", hint="read the session again and resubmit the claim")
