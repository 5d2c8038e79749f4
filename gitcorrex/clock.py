"""The one clock: the time every entry gives the facts it records.

Use-cases never read the clock: they take `now` (or `clock`, called when the time is
needed) from the entry that runs them — a command, a git hook, an agent adapter, the Python
API — and every entry passes `now_utc`. So "now" is decided in one place (aware, UTC), a test
or a replay can give any other time, and tests/test_architecture.py holds that nothing else
reads the wall clock. Durations use `time.monotonic`, which is not a time of day.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime


def now_utc() -> datetime:
    """The current time, timezone-aware, in UTC (`datetime`, ~2 ms to import, loads only
    when a time is asked for: an agent's allowed call records nothing and asks none)."""
    from datetime import datetime, timezone

    return datetime.now(timezone.utc)
