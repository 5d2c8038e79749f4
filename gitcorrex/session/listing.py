"""`git correx session list`: every session the ledger started, one line each, folded from
one read of the whole ledger."""

from __future__ import annotations

from typing import Any

from gitcorrex import ledger
from gitcorrex.git import Repository
from gitcorrex.model.plan_events import SessionStartedFields
from gitcorrex.model.record import Record
from gitcorrex.model.session_state import SessionState
from gitcorrex.replay.session_entries import fold_entries


class SessionSummary(Record):
    """One line of `session list`: the step awaiting review (a guarded plan's, settled);
    with a pause, its cause and reason, and for a semantic terminal pause the admission
    summary (seed 004: the list shows cause and admission)."""

    session: str
    plan_id: str | None
    status: str
    revision: int
    active_step: str | None
    awaiting_review: str | None = None
    pause_cause: str | None = None
    pause_reason: str | None = None
    admission: str | None = None


def list_sessions(repo: Repository) -> list[SessionSummary]:
    """Every session the ledger started, oldest first."""
    read = ledger.read_all(repo)
    started = sorted((e.at, e.id, e.session) for e in read.entries
                     if e.kind == SessionStartedFields.KIND and e.session is not None)
    return [_summary(fold_entries(session, read.entries)) for _, _, session in started]


def _summary(state: SessionState) -> SessionSummary:
    pause = state.pause
    return SessionSummary(session=state.session, plan_id=state.plan_id,
                          status=state.status.value, revision=state.revision,
                          active_step=state.active_step,
                          awaiting_review=state.awaiting_review,
                          pause_cause=pause.cause if pause else None,
                          pause_reason=pause.reason if pause else None,
                          admission=admission_summary(pause.receipt) if pause else None)


def admission_summary(receipt: dict[str, Any] | None) -> str | None:
    """`verification:result = 'fail' on 1a2b3c4d5e6f, edge of step S1, decided at T`."""
    if receipt is None:
        return None
    edge = receipt.get("declared_by")
    return (f"{receipt.get('claim_class')} {receipt.get('provider')}:{receipt.get('fact')} = "
            f"{receipt.get('expected')!r} on {str(receipt.get('subject'))[:12]}, "
            f"{f'edge of step {edge}' if edge else 'no declared edge recorded'}, decided at "
            f"{str(receipt.get('decided_at'))[:19]}Z, revision {receipt.get('revision')}")
