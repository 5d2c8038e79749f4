"""Every payload class is registered once, and the known kinds are exactly theirs."""

from __future__ import annotations

import importlib
import pkgutil

import gitcorrex.model
from gitcorrex.model.event_kinds import KNOWN_KINDS, PAYLOAD_BY_KIND, PAYLOAD_TYPES
from gitcorrex.model.record import EventPayload, SparsePayload


def _all_payload_classes() -> set[type[EventPayload]]:
    for module in pkgutil.iter_modules(gitcorrex.model.__path__):
        importlib.import_module(f"gitcorrex.model.{module.name}")
    found: set[type[EventPayload]] = set()
    todo: list[type[EventPayload]] = [EventPayload]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("gitcorrex.model."):
                found.add(sub)
    return found - {SparsePayload}


def test_every_payload_class_in_the_model_is_registered() -> None:
    assert _all_payload_classes() == set(PAYLOAD_TYPES)


def test_each_kind_is_declared_by_exactly_one_payload_class() -> None:
    assert len(PAYLOAD_BY_KIND) == len(PAYLOAD_TYPES)
    assert frozenset(p.KIND for p in PAYLOAD_TYPES) == KNOWN_KINDS
