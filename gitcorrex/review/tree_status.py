"""A tree's verification status: its latest recorded verification, or none at all.

Keyed by tree, never by commit: a rebased commit with an identical tree has the same
status. No observation means `none` (unverified), never `pass`.
"""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.note_lines import LedgerEntry
from gitcorrex.model.verification import VerificationFields
from gitcorrex.review.log_lines import MARKS as MARKS  # re-exported
from gitcorrex.review.log_lines import TreeStatus


def latest_verification(entries: Sequence[LedgerEntry]) -> RecordedEvent | None:
    """The newest verification among `entries` (by time, then id); None when there is none."""
    mine = [entry for entry in entries if entry.kind == VerificationFields.KIND]
    if not mine:
        return None
    return max(mine, key=lambda entry: (entry.at, entry.id)).event()


def tree_status(tree: str, entries: Sequence[LedgerEntry]) -> TreeStatus:
    """The status `log` shows for one tree."""
    event = latest_verification(entries)
    if event is None:
        return TreeStatus(tree, "none")
    result = str(event.field("result"))
    reason = event.field("reason")
    return TreeStatus(
        tree,
        result if result in MARKS else "unavailable",
        expectation=str(event.field("expectation")),
        reason=None if reason is None else str(reason),
        by=actor_label(event),
        at=event.at,
        event=event.id,
    )


def actor_label(event: RecordedEvent) -> str:
    """Who recorded it, as shown to people: email, else name, else host."""
    return event.actor.email or event.actor.name or event.actor.host
