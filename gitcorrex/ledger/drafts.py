"""Typed facts into the one writer: a draft holds its payload model (which names the kind),
and what is appended comes back as the events read from the very lines written.

`append_lines` (`ledger/append.py`) takes plain values; this is the typed door to it for
the callers that build payload models (sessions, plans, gates, assess), so both record
through one envelope, one set of checks and one compare-and-swap loop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from gitcorrex.git import Repository
from gitcorrex.ledger.append import Draft, append_lines
from gitcorrex.ledger.view import LedgerView
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.provenance import Provenance
from gitcorrex.model.record import EventPayload


@dataclass(frozen=True)
class EventDraft:
    """A fact to record: its typed payload (which names the kind), what it is about, and
    the envelope's session, stage, step and state key.

    `anchors` names extra objects (oid → "tree"/"blob", e.g. a command-output blob) the
    ledger must keep alive; every subject is anchored anyway.
    """

    payload: EventPayload
    subjects: tuple[str, ...]
    session: str | None = None
    stage: str | None = None
    step: str | None = None
    state_key: str | None = None
    anchors: Mapping[str, str] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.payload.KIND

    def plain(self) -> Draft:
        """The same fact as the writer's plain values."""
        return Draft(self.kind, self.payload.line_fields(), self.subjects, self.session,
                     self.stage, self.step, self.state_key, self.anchors)


TypedDrafts = Sequence[EventDraft] | Callable[[LedgerView], Sequence[EventDraft]]


def append_events(repo: Repository, drafts: TypedDrafts, *, now: datetime,
                  provenance: Provenance, max_attempts: int = 60) -> list[RecordedEvent]:
    """Record `drafts` in one notes commit (`append_lines`); the events as written.

    A callable is asked for the drafts again on every attempt, against the ledger as it is
    then (see `append_lines`). Exhausted retries raise LedgerContentionError (exit 3).
    """
    def plain(view: LedgerView) -> list[Draft]:
        batch = drafts(view) if callable(drafts) else drafts
        return [draft.plain() for draft in batch]

    lines = append_lines(repo, plain, now=now, provenance=provenance,
                         max_attempts=max_attempts)
    return [RecordedEvent.model_validate_json(line) for line in lines]
