"""The one order of events: a session's by seq with seq-less events last, the rest by time."""

from __future__ import annotations

from typing import NamedTuple

from gitcorrex.model.event_order import session_order, time_order


class Event(NamedTuple):
    at: str
    id: str
    seq: int | None


def test_session_order_puts_seq_less_events_after_every_numbered_one_by_time() -> None:
    events = [Event("3", "c", None), Event("9", "a", 2), Event("1", "d", None),
              Event("5", "b", 1), Event("1", "e", None)]
    assert [e.id for e in sorted(events, key=session_order)] == ["b", "a", "d", "e", "c"]


def test_time_order_is_time_then_id_and_newest_first_is_its_reverse() -> None:
    events = [Event("2", "a", 1), Event("1", "c", 2), Event("1", "b", None)]
    assert [e.id for e in sorted(events, key=time_order)] == ["b", "c", "a"]
    assert [e.id for e in sorted(events, key=time_order, reverse=True)] == ["a", "c", "b"]
