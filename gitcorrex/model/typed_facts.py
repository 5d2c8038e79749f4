"""Ledger entries read as their payload class, for deciders: a `Fact[P]` is an entry whose
fields fit `P`, with the typed payload beside the envelope the ordering needs.

A line of a wanted kind whose fields do not fit its class is no fact here: it grants
nothing (no validation, authorization, lock, audit, pass) and blocks nothing (no split,
no precondition). It is not lost either: the line stays in the ledger byte-exact (and in
`git correx replay`, whose problems cover envelopes only), and `typed_events` names the
field that does not fit for a reader that wants to say so (`plan lock` does). Only the
kinds a decider asks for are parsed, so reading a busy note costs what the wanted lines
cost.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.note_lines import LedgerEntry, TypedEvent, typed_events
from gitcorrex.model.record import EventPayload

P = TypeVar("P", bound=EventPayload)


@dataclass(frozen=True)
class Fact(Generic[P]):
    """One ledger entry whose fields fit `P`: its envelope (`entry`) and typed `payload`."""

    entry: LedgerEntry
    payload: P

    @property
    def id(self) -> str:
        return self.entry.id

    @property
    def at(self) -> str:
        return self.entry.at

    @property
    def step(self) -> str | None:
        return self.entry.step

    @property
    def state_key(self) -> str | None:
        return self.entry.state_key

    def event(self) -> RecordedEvent:
        """The whole event, parsed on demand (what `--json` output shows)."""
        return self.entry.event()


def facts_of(typed: Iterable[TypedEvent], payload: type[P]) -> list[Fact[P]]:
    """The events among `typed` whose payload is a `payload` (non-fitting lines left out),
    in the given order."""
    return [Fact(t.entry, t.payload) for t in typed if isinstance(t.payload, payload)]


def read_facts(entries: Iterable[LedgerEntry], payload: type[P]) -> list[Fact[P]]:
    """`entries` of `payload`'s kind that fit it, in the given order; other kinds unparsed."""
    return facts_of(typed_events(entries, (payload,)), payload)


def latest(facts: Iterable[Fact[P]]) -> Fact[P] | None:
    """The most recent fact by (at, id); None for none."""
    return max(facts, key=time_order, default=None)


def in_time_order(facts: Iterable[Fact[P]]) -> list[Fact[P]]:
    """Oldest first by (at, id): the order the ledger's timeline gives them."""
    return sorted(facts, key=time_order)
