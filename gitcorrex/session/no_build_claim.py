"""Completing an activity-only step: no build claim (no declared writes, or a docs
expectation) and plan checks that run no command (seed 003 acceptance 3: such a step rests
on a person's decision, `plan authorize`).

Nothing runs and no observation is recorded. The step still may not smuggle in changes:
a step without writes completes only on the state its writes begin at, and a docs step only
when every path changed since then is one of its declared writes. The state it completes
on is settled, never verified: the next step asks for a `verify` first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from gitcorrex import ledger
from gitcorrex.errors import TransitionRefusedError
from gitcorrex.git import Repository, changed_paths
from gitcorrex.model.events import Provenance
from gitcorrex.model.plan import PlanStep
from gitcorrex.model.session_events import StepVerifiedFields
from gitcorrex.model.session_state import StepStatus
from gitcorrex.model.write_manifest import Manifest
from gitcorrex.session.settled_step import ActiveStep
from gitcorrex.session.settlement_events import needs_review, passed_drafts
from gitcorrex.session.state import state_at
from gitcorrex.session.step_baseline import step_baseline

if TYPE_CHECKING:
    from gitcorrex.verify.outcome import VerifyOutcome


def complete_without_claim(repo: Repository, active: ActiveStep, *, state_key: str,
                           expectation: str, now: datetime,
                           provenance: Provenance) -> VerifyOutcome:
    """Record `step_verified` (build_claim false) if the step changed only what it declared
    (`step_awaiting_review` for a guarded plan's step: settlement_events.passed_drafts)."""
    from gitcorrex.verify.outcome import VerifyOutcome

    session, step = active.session, active.step
    _check_changes(repo, step_baseline(repo, session, step.id), step, state_key)

    def drafts(view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        state = state_at(view, session)
        current = state.step(step.id)
        if state.active_step != step.id or current is None or \
                current.status is StepStatus.AWAITING_REVIEW:
            return []
        fields = StepVerifiedFields(observation=None, build_claim=False,
                                    attempts=current.attempts + 1)
        return passed_drafts(state, active, state_key, fields)

    events = ledger.append_events(repo, drafts, now=now, provenance=provenance)
    said = f"step {step.id} was settled by another process; nothing recorded"
    if events:
        said = f"step {step.id} completed without a build claim" + \
            (": awaiting review" if needs_review(active.plan) else "")
    return VerifyOutcome(expectation, state_key, None, None, None,
                         f"expectation {expectation!r}: no build claim, nothing verified\n{said}")


def _check_changes(repo: Repository, baseline: str, step: PlanStep, state_key: str) -> None:
    changed = changed_paths(repo, baseline, state_key) if baseline != state_key else []
    writes = Manifest(tuple(step.writes), f"step {step.id!r}")
    outside = [path for path in changed if not step.writes or not writes.allows(path)]
    if outside:
        raise TransitionRefusedError(
            f"step {step.id} makes no build claim but changed {', '.join(outside[:5])} "
            f"outside its declared writes since its writes began ({baseline[:12]})",
            hint="revert those paths, or re-plan the step with the writes it needs")
