"""Every payload class is registered once, the known kinds are exactly theirs, and a line
reads back into its class, lazily, for the kinds a reader asks for."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import gitcorrex.model
from gitcorrex.model.event_kinds import KNOWN_KINDS, PAYLOAD_BY_KIND, PAYLOAD_TYPES
from gitcorrex.model.note_lines import LedgerEntry, check_line, event_line, peek, typed_events
from gitcorrex.model.record import EventPayload, SparsePayload
from gitcorrex.model.session_events import (
    SessionCompletedFields,
    StepFailedFields,
    StepStartedFields,
)
from gitcorrex.model.verification import ObservedResult, Result, VerificationFields


def _all_payload_classes() -> set[type[EventPayload]]:
    for module in pkgutil.iter_modules(gitcorrex.model.__path__):
        importlib.import_module(f"gitcorrex.model.{module.name}")
    found: set[type[EventPayload]] = set()
    todo: list[type[EventPayload]] = [EventPayload]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            module = sys.modules.get(sub.__module__)
            if sub.__module__.startswith("gitcorrex.model.") \
                    and getattr(module, sub.__name__, None) is sub:  # not a line class
                found.add(sub)
    return found - {SparsePayload}


def test_every_payload_class_in_the_model_is_registered() -> None:
    assert _all_payload_classes() == set(PAYLOAD_TYPES)


def test_each_kind_is_declared_by_exactly_one_payload_class() -> None:
    assert len(PAYLOAD_BY_KIND) == len(PAYLOAD_TYPES)
    assert frozenset(p.KIND for p in PAYLOAD_TYPES) == KNOWN_KINDS


ENVELOPE = {"v": 1, "at": "2026-01-01T00:00:00.000000Z", "subjects": ["a" * 40],
            "session": "s", "seq": 1, "stage": None, "step": "S1", "state_key": "c" * 40,
            "actor": {"name": None, "email": None, "host": "h", "runtime": "1-ab"},
            "tool": {"correx": "0", "git": "2", "libgit2": "1"}}


def entry_of(kind: str, fields: dict[str, object]) -> LedgerEntry:
    """The ledger's entry for the canonical line of `fields` under `kind`."""
    entry, problem = check_line(event_line(fields, {**ENVELOPE, "kind": kind}).encode())
    assert entry is not None and problem is None
    return entry


def test_a_line_reads_back_into_its_payload_class_byte_for_byte() -> None:
    written = StepStartedFields(writes=["src/**"], expectation_docs=False, baseline="b" * 40)
    [typed] = typed_events([entry_of(written.KIND, written.line_fields())],
                           (StepStartedFields, SessionCompletedFields))
    assert isinstance(typed.payload, StepStartedFields) and typed.problem is None
    assert typed.payload.line_fields() == written.line_fields()  # no envelope key leaks in


def test_only_the_kinds_asked_for_are_parsed() -> None:
    broken = entry_of(StepFailedFields.KIND, {"attempts": "not a number"})
    started = entry_of(StepStartedFields.KIND, {"writes": [], "expectation_docs": True,
                                                "baseline": "b" * 40})
    assert [t.entry for t in typed_events([broken, started], (StepStartedFields,))] \
        == [started]


def test_fields_that_do_not_fit_are_a_problem_naming_the_field() -> None:
    [typed] = typed_events([entry_of(StepStartedFields.KIND, {"writes": [], "baseline": "b"})],
                           (StepStartedFields, StepFailedFields))
    assert typed.payload is None
    assert typed.problem is not None and typed.problem.startswith("expectation_docs: ")


def test_a_peek_reads_only_the_fields_its_model_names() -> None:
    line = entry_of(VerificationFields.KIND, {"result": "fail", "commands": "ignored"})
    seen = peek(line, ObservedResult)
    assert seen is not None and seen.result is Result.FAIL
    assert peek(entry_of(VerificationFields.KIND, {}), ObservedResult) is None
