"""A tree's verification status: its latest recorded verification, or none at all.

Keyed by tree, never by commit: a rebased commit with an identical tree has the same
status. No observation means `none` (unverified), never `pass`. A latest verification
whose fields do not fit its class is `unavailable` and carries the problem instead of an
expectation: nothing half-read passes (or fails).
"""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import ReadActor, RecordedEvent
from gitcorrex.model.note_lines import LedgerEntry, written_typed
from gitcorrex.model.payload_problem import unfit_text
from gitcorrex.model.verification import VerificationFields
from gitcorrex.review.log_lines import MARKS as MARKS  # re-exported
from gitcorrex.review.log_lines import TreeStatus


def latest_verification(entries: Sequence[LedgerEntry]) -> LedgerEntry | None:
    """The newest verification among `entries` (by time, then id); None when there is none."""
    mine = [entry for entry in entries if entry.kind == VerificationFields.KIND]
    if not mine:
        return None
    return max(mine, key=time_order)


def tree_status(tree: str, entries: Sequence[LedgerEntry]) -> TreeStatus:
    """The status `log` shows for one tree."""
    entry = latest_verification(entries)
    if entry is None:
        return TreeStatus(tree, "none")
    typed, writer = written_typed(entry, VerificationFields)  # one parse gives both
    by = writer_label(writer)
    match typed.payload:
        case VerificationFields(result=result, expectation=expectation, reason=reason):
            return TreeStatus(tree, result.value, expectation=expectation,
                              reason=None if reason is None else reason.value,
                              by=by, at=entry.at, event=entry.id)
    return TreeStatus(tree, "unavailable", by=by, at=entry.at, event=entry.id,
                      problem=unfit_text(entry.kind, str(typed.problem)))


def actor_label(event: RecordedEvent) -> str:
    """Who recorded it, as shown to people: email, else name, else host."""
    return writer_label(event.actor)


def writer_label(actor: ReadActor) -> str:
    """An actor as shown to people: email, else name, else host."""
    return actor.email or actor.name or actor.host
