"""The step a session is working on, as the session fold says: what gates and assessments
pin their facts on. A pure query on the session's entries, so gates/ and manifest/ ask it
here, one layer down, and never read the session themselves."""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex.model.note_lines import LedgerEntry
from gitcorrex.replay.session_entries import fold_entries


def active_step(session: str, entries: Sequence[LedgerEntry]) -> str | None:
    """The step `session` is working on (from its note's entries); None between steps."""
    return fold_entries(session, entries).active_step
