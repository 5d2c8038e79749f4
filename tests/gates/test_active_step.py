"""The session's active step, folded from the envelope of its events."""

from __future__ import annotations

from gitcorrex.gates.context import active_step
from gitcorrex.model.events import RecordedEvent
from tests.gates.conftest import PROVENANCE


def event(kind: str, step: str | None, seq: int) -> RecordedEvent:
    return RecordedEvent(v=1, id=f"{seq:064d}", kind=kind, at="2026-01-01T00:00:00.000000Z",
                         subjects=["a" * 40], session="s", seq=seq, step=step,
                         actor=PROVENANCE.actor, tool=PROVENANCE.tool)


def test_no_step_before_the_first_start() -> None:
    assert active_step([]) is None
    assert active_step([event("session_started", None, 1)]) is None


def test_started_step_stays_active_through_failures() -> None:
    events = [event("step_started", "S1", 1), event("step_failed", "S1", 2),
              event("tool_call_assessed", None, 3)]
    assert active_step(events) == "S1"


def test_verified_step_is_closed_and_the_next_start_wins() -> None:
    events = [event("step_started", "S1", 1), event("step_verified", "S1", 2)]
    assert active_step(events) is None
    assert active_step([*events, event("step_started", "S2", 3)]) == "S2"


def test_closing_another_step_leaves_the_active_one() -> None:
    events = [event("step_started", "S2", 1), event("step_verified", "S1", 2)]
    assert active_step(events) == "S2"
    assert active_step([*events, event("session_completed", None, 3)]) is None
