"""Typed facts: an entry counts only when its fields fit the payload class asked for, and the
newest by (at, id) is the latest whatever the note order."""

from __future__ import annotations

from gitcorrex.model.event_line import event_line
from gitcorrex.model.note_lines import LedgerEntry, check_line, typed_events
from gitcorrex.model.plan_events import PlanAuthorizedFields, PlanRoutedFields
from gitcorrex.model.typed_facts import facts_of, in_time_order, latest, read_facts

PLAN = "a" * 40


def entry_of(kind: str, fields: dict[str, object], at: str = "01") -> LedgerEntry:
    """The ledger's entry for the canonical line of `fields` under `kind` at second `at`."""
    envelope = {"v": 1, "kind": kind, "at": f"2026-01-01T00:00:{at}.000000Z",
                "subjects": [PLAN], "session": None, "seq": None, "stage": None,
                "step": "S1", "state_key": None,
                "actor": {"name": None, "email": None, "host": "h", "runtime": "1-ab"},
                "tool": {"correx": "0", "git": "2", "libgit2": "1"}}
    entry, problem = check_line(event_line(fields, envelope).encode())
    assert entry is not None and problem is None
    return entry


def authorization(name: object, at: str = "01") -> LedgerEntry:
    return entry_of(PlanAuthorizedFields.KIND, {"plan": PLAN, "plan_id": "p", "name": name,
                                                "email": None}, at)


def test_an_entry_whose_fields_do_not_fit_is_no_fact() -> None:
    fits, unfit = authorization("Ada"), authorization(["Ada"], at="02")
    facts = read_facts([unfit, fits], PlanAuthorizedFields)
    assert [(f.entry, f.payload.name) for f in facts] == [(fits, "Ada")]
    [problem] = typed_events([unfit], (PlanAuthorizedFields,))
    assert problem.payload is None and problem.problem is not None  # it names the field


def test_facts_of_keeps_only_the_class_asked_for() -> None:
    routed = entry_of(PlanRoutedFields.KIND, {"plan": PLAN, "plan_id": "p",
                                              "route": "split-required", "reason": "big",
                                              "name": "Ada", "email": None})
    typed = typed_events([authorization("Ada"), routed],
                         (PlanAuthorizedFields, PlanRoutedFields))
    [fact] = facts_of(typed, PlanRoutedFields)
    assert (fact.entry, fact.step, fact.payload.reason) == (routed, "S1", "big")


def test_latest_and_time_order_follow_the_timestamp_not_the_note_order() -> None:
    late, early = authorization("Late", at="09"), authorization("Early", at="03")
    facts = read_facts([late, early], PlanAuthorizedFields)
    assert [f.payload.name for f in in_time_order(facts)] == ["Early", "Late"]
    newest = latest(facts)
    assert newest is not None and newest.payload.name == "Late"
    assert latest(read_facts([], PlanAuthorizedFields)) is None
