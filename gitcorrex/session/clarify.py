"""`git correx session clarify PATH --reason TEXT`: an operator answers a precondition signal.

The gates record `workspace_precondition_failed` when a build-critical path keeps being
missing; until it exists in the state tree or is clarified, `step start` admits only a
bootstrap step that writes it. A clarification names an open signal's path exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.git import Repository
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.preconditions import PreconditionClarified
from gitcorrex.session.state import state_at
from gitcorrex.session.transition import refuse, refuse_unless_sound


def clarify_precondition(repo: Repository, session: str, path: str, *, reason: str,
                         now: datetime, provenance: Provenance) -> RecordedEvent:
    """Record `precondition_clarified` for an open signal on `path` (exit 1 when none is)."""
    fields = PreconditionClarified(path=path, reason=reason)

    def drafts(view: ledger.LedgerView) -> Sequence[ledger.EventDraft]:
        state = state_at(view, session)
        refuse_unless_sound(state)
        if all(p.path != path for p in state.preconditions):
            open_paths = ", ".join(p.path for p in state.preconditions) or "none"
            raise refuse(f"session {session} has no open precondition on {path!r}",
                         hint=f"open preconditions: {open_paths}")
        return [ledger.EventDraft(fields, subjects=(), session=session,
                                  step=state.active_step)]

    return ledger.append_events(repo, drafts, now=now, provenance=provenance)[0]
