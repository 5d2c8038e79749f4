"""`git correx session status` and `session list`: the folded state, and whether its
baseline still holds for this workspace (the one thing replay cannot say)."""

from __future__ import annotations

from typing import Any

from gitcorrex import ledger
from gitcorrex.git.background import in_background
from gitcorrex.git.repository import Repository
from gitcorrex.git.state import compute_state
from gitcorrex.model.plan_events import SessionStartedFields
from gitcorrex.model.record import Record
from gitcorrex.model.session_state import SessionState
from gitcorrex.replay.session_entries import fold_entries
from gitcorrex.session.context import existing_state


class WorkspaceView(Record):
    """The current state key and whether the session's baseline is it."""

    state_key: str
    baseline_valid: bool


class SessionReport(Record):
    """`state` is exactly what `replay --session ID --json` prints as its `state`."""

    state: SessionState
    workspace: WorkspaceView


class SessionSummary(Record):
    """One line of `session list`: with a pause, its cause and reason, and for a semantic
    terminal pause the admission summary (seed 004: the list shows cause and admission)."""

    session: str
    plan_id: str | None
    status: str
    revision: int
    active_step: str | None
    pause_cause: str | None = None
    pause_reason: str | None = None
    admission: str | None = None


def session_status(repo: Repository, session: str) -> SessionReport:
    """The folded state plus the workspace's view of its baseline."""
    measuring = in_background(lambda: compute_state(repo).state_key)  # git works meanwhile
    try:
        state = existing_state(repo, session)
    finally:
        key = measuring()  # never leave the measurement (and its temporary index) behind
    valid = state.baseline is not None and state.baseline.state_key == key
    return SessionReport(state=state, workspace=WorkspaceView(state_key=key,
                                                              baseline_valid=valid))


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
