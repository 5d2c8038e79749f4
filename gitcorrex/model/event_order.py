"""The one order of events, defined once: a session's (by `seq`) and the ledger's (by time).

Every reader that orders events takes its key from here — `replay`, the session fold that
`session status` shows, the ledger view a claim's provider reads, `show`, `log`'s
latest-first lists — so no two of them can disagree on where an event sorts. Note order
is never used: notes merged with `cat_sort_uniq` come back sorted by their bytes.

- **Session order**: by `seq`, the number the session's own writers allocate under
  compare-and-swap. An event without one (a foreign writer's line appended to a session's
  note) has no place among them, so it sorts after every numbered event, by time then id:
  it never shifts an event the session numbered, and it is not read as older than the
  events it was appended after.
- **Time order**: by `at` (fixed-width RFC 3339 UTC, so string order is time order), then
  `id` (content addressed) so that equal instants still give one order. Newest first is
  this order reversed.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Protocol


class Timed(Protocol):
    """What time order needs: a RecordedEvent, a LedgerEntry, a Fact."""

    @property
    def at(self) -> str: ...
    @property
    def id(self) -> str: ...


class Sequenced(Timed, Protocol):
    """What session order needs besides time: the session's `seq`, None for a foreign line."""

    @property
    def seq(self) -> int | None: ...


def session_order(event: Sequenced) -> tuple[bool, int, str, str]:
    """The sort key of a session's events: numbered ones by seq, then seq-less by time."""
    return (event.seq is None, event.seq or 0, event.at, event.id)


# attrgetter, not a lambda: `replay --json` sorts 100,000 entries with this key, and a key
# computed in C costs a fraction of a Python call per entry (docs/performance.md).
time_order: Callable[[Timed], tuple[str, str]] = attrgetter("at", "id")
