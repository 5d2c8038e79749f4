"""`git correx session adopt --reason TEXT`: an operator adopts the changes made between
steps, so that the next step may start on them (session/safe_start.py).

A step starts only when everything changed since the last settled state lies inside its
own writes; an edit no step declared (a README touched by hand, a generated file) is the
operator's to accept. Adoption records `changes_adopted` naming every path and the reason,
and the current state becomes the settled one. It adopts files, never a profile (only a
re-plan does) and never verifies anything: the next step still needs a passing `verify`
of the state. It is an operator decision: the agents' hooks deny it to an agent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.errors import UsageError
from gitcorrex.git import Repository, compute_state
from gitcorrex.model.adoption import MAX_LISTED_PATHS, ChangesAdoptedFields
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.session_events import Transition
from gitcorrex.model.session_state import SessionState, SessionStatus
from gitcorrex.session.bound_profile import check_profile_unchanged
from gitcorrex.session.safe_start import changes_since_settled
from gitcorrex.session.state import existing_state
from gitcorrex.session.transition import refuse, run_transition


@dataclass(frozen=True)
class Adoption:
    """What was adopted on which state (`events` empty: nothing had changed)."""

    session: str
    state_key: str
    settled: str | None
    paths: list[str]
    events: list[RecordedEvent]


def adopt_changes(repo: Repository, session: str, *, reason: str, now: datetime,
                  provenance: Provenance) -> Adoption:
    """Record `changes_adopted` for every path changed since the last settled state; refused
    (exit 1) while a step is active, on a completed session or a changed profile."""
    if not reason.strip():
        raise UsageError("session adopt needs a reason", hint="pass --reason TEXT")
    read = existing_state(repo, session)
    state_key = compute_state(repo).state_key
    check_profile_unchanged(repo, read, state_key)
    changed = {read.settled: changes_since_settled(repo, read, state_key)}
    adopted: list[str] = []

    def admit(state: SessionState, view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        _check_adoptable(state)
        if state.settled not in changed:
            changed[state.settled] = changes_since_settled(repo, state, state_key)
        paths = adopted[:] = changed[state.settled]
        if not paths:
            return []
        fields = ChangesAdoptedFields(reason=bound_text(reason), settled=state.settled,
                                      paths=[bound_text(p) for p in paths[:MAX_LISTED_PATHS]],
                                      paths_omitted=max(0, len(paths) - MAX_LISTED_PATHS))
        return [ledger.EventDraft(fields, subjects=(state_key,), session=session,
                                  state_key=state_key)]

    events = run_transition(repo, session, transition=Transition.ADOPT, expected=None,
                            admit=admit, now=now, provenance=provenance)
    return Adoption(session, state_key, read.settled, adopted if events else [], events)


def _check_adoptable(state: SessionState) -> None:
    if state.status is SessionStatus.COMPLETED:
        raise refuse(f"session {state.session} is completed", hint="start a new session")
    if state.active_step is not None:
        raise refuse(f"step {state.active_step} is active: its settlement judges what "
                     "changed since it started", hint="adopt between steps, after `git "
                     "correx verify` settled the step")
