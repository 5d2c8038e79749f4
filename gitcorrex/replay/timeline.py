"""Replay: the ledger's events folded into a timeline, with no other input at all.

Pure on purpose: replay never runs a command, reads a file or asks git anything, so the
same events give the same timeline in the original repository and in a bare clone that
fetched only the ledger ref.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import Generic, Protocol, TypeVar


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
    """All events by (at, id), or one session's events by seq (then at, id).

    Explicit sort keys, never note order: notes merged with cat_sort_uniq come back
    sorted by their bytes, which is not time order.
    """
    if session is None:
        return Timeline(None, sorted(events, key=attrgetter("at", "id")))
    mine = [event for event in events if event.session == session]
    return Timeline(session, sorted(mine, key=_session_order))


def _session_order(event: Replayable) -> tuple[bool, int, str, str]:
    """By seq; an event without one (a foreign writer's) sorts last, by time."""
    return (event.seq is None, event.seq or 0, event.at, event.id)
