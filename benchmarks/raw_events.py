"""Lines of a known kind with hand-picked fields, for benchmarks and tests.

The ledger appends typed payloads; a fixture that only needs the size and shape of real
lines (a benchmark), or a line as another writer could have written it (a test of readers:
older, newer or careless), builds one here, still appended (and checked) by the ledger
itself. It imports only `gitcorrex`, so the benchmarks run on their own from this folder;
the tests import it as `benchmarks.raw_events` (through tests/ledger_facts.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from pydantic import ConfigDict

from gitcorrex.ledger import EventDraft
from gitcorrex.model.record import EventPayload


class _RawPayload(EventPayload):
    """Whatever fields it was given, written as given."""

    model_config = ConfigDict(extra="allow")

    def line_fields(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


def raw_draft(kind: str, subjects: tuple[str, ...], fields: Mapping[str, object] | None = None,
              session: str | None = None, **envelope: Any) -> EventDraft:
    """A draft of `kind` whose line carries exactly `fields` (the ledger still checks them)."""
    return EventDraft(_payload_class(kind)(**(fields or {})), subjects, session=session,
                      **envelope)


@cache
def _payload_class(kind: str) -> type[_RawPayload]:
    """One class per kind: making a pydantic class costs ~1 ms, more than the append that
    a benchmark measures."""
    return type(f"Raw_{kind}", (_RawPayload,), {"KIND": kind, "__module__": __name__})
