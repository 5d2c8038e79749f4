"""Replay: the ledger's events folded into a timeline, with no other input at all.

Pure on purpose: replay never runs a command, reads a file or asks git anything, so the
same events give the same timeline in the original repository and in a bare clone that
fetched only the ledger ref.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from gitcorrex.model.event_order import session_order, time_order


class Replayable(Protocol):
    """What ordering needs: a RecordedEvent, or a ledger entry that has not parsed its
    kind fields (a 100,000-event replay never needs them for --json)."""

    @property
    def at(self) -> str: ...
    @property
    def id(self) -> str: ...
    @property
    def session(self) -> str | None: ...
    @property
    def seq(self) -> int | None: ...


E = TypeVar("E", bound=Replayable)


@dataclass(frozen=True)
class Timeline(Generic[E]):
    """Events in replay order; `session` is the session replayed, or None for all."""

    session: str | None
    events: list[E]


def replay(events: Iterable[E], *, session: str | None) -> Timeline[E]:
    """All events in time order, or one session's events in session order (the orders
    of model/event_order.py: never note order, which a cat_sort_uniq merge sorts by bytes).
    """
    if session is None:
        return Timeline(None, sorted(events, key=time_order))
    mine = [event for event in events if event.session == session]
    return Timeline(session, sorted(mine, key=session_order))
