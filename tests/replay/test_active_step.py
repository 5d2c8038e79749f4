"""The step gate facts are recorded on: the session fold's active step, nothing else."""

from __future__ import annotations

from typing import Any

from gitcorrex.model.canonical import canonical_json
from gitcorrex.model.note_lines import LedgerEntry, check_line
from gitcorrex.replay.active_step import active_step
from tests.gates.conftest import PROVENANCE, STEP_STARTED

VERIFIED = {"observation": None, "build_claim": False, "attempts": 1}
FAILED = {"observation": "b" * 64, "result": "fail", "reason": None, "feedback": "boom",
          "output_blob": None, "attempts": 1, "max_attempts": 3, "route": "continue-fix"}


def event(kind: str, step: str | None, seq: int, **fields: Any) -> LedgerEntry:
    """The entry the ledger's scan makes of such a line."""
    line = canonical_json({
        "v": 1, "id": f"{seq:064d}", "kind": kind, "at": "2026-01-01T00:00:00.000000Z",
        "subjects": ["a" * 40], "session": "s", "seq": seq, "stage": None, "step": step,
        "state_key": "c" * 40, "actor": dict(PROVENANCE.actor),
        "tool": dict(PROVENANCE.tool), **fields})
    entry, _ = check_line(line.encode())
    assert entry is not None
    return entry


def test_no_step_before_the_first_start() -> None:
    assert active_step("s", []) is None
    assert active_step("s", [event("tool_call_assessed", None, 1)]) is None


def test_started_step_stays_active_through_failures() -> None:
    events = [event("step_started", "S1", 1, **STEP_STARTED),
              event("step_failed", "S1", 2, **FAILED), event("tool_call_assessed", None, 3)]
    assert active_step("s", events) == "S1"


def test_verified_step_is_closed_and_the_next_start_wins() -> None:
    events = [event("step_started", "S1", 1, **STEP_STARTED),
              event("step_verified", "S1", 2, **VERIFIED)]
    assert active_step("s", events) is None
    assert active_step("s", [*events, event("step_started", "S2", 3, **STEP_STARTED)]) == "S2"


def test_closing_another_step_leaves_the_active_one() -> None:
    events = [event("step_started", "S2", 1, **STEP_STARTED),
              event("step_verified", "S1", 2, **VERIFIED)]
    assert active_step("s", events) == "S2"


def test_a_malformed_start_names_no_step() -> None:
    """The fold refuses a start without its fields; a gate must not pin facts on it."""
    assert active_step("s", [event("step_started", "S1", 1)]) is None


def test_another_sessions_events_do_not_count() -> None:
    assert active_step("t", [event("step_started", "S1", 1, **STEP_STARTED)]) is None
