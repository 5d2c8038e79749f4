"""The step a session is working on, as the session fold says: what gates and assessments
pin their facts on. A pure query on the session's events, so gates/ and manifest/ ask it
here, one layer down, and never read the session themselves."""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex.model.events import RecordedEvent
from gitcorrex.replay.session import fold_session


def active_step(session: str, events: Sequence[RecordedEvent]) -> str | None:
    """The step `session` is working on (its events in seq order); None between steps."""
    return fold_session(session, events).active_step
