"""`git correx replay`: the recorded history, rebuilt from the ledger ref alone.

Reads the ledger (every note, or one session's) and folds it: the timeline
(replay/timeline.py) and, for one session, its state (the fold `session status` prints).
Runs no command and never looks at the work tree or the index, so a bare clone that fetched
only the ledger replays exactly the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex import ledger
from gitcorrex.git import Repository
from gitcorrex.model.session_object import session_object_oid
from gitcorrex.replay.timeline import replay

TYPE_CHECKING = False
if TYPE_CHECKING:  # the folded state's model, built only for `--session` (5 ms to import)
    from gitcorrex.model.session_state import SessionState


@dataclass(frozen=True)
class LedgerReplay:
    """The events oldest first (one session's in seq order), what the read found (`read`:
    its ref, tip and problems), and with a session its folded state."""

    events: list[ledger.LedgerEntry]
    read: ledger.LedgerRead
    state: SessionState | None = None

    @property
    def problems(self) -> list[ledger.Problem]:
        """What replay reports: the doubtful lines, then (when fields were checked) the
        lines whose fields do not fit their kind. The state's fold saw only the former."""
        return [*self.read.problems, *self.read.unfit]


def replay_ledger(repo: Repository, *, session: str | None,
                  check_fields: bool = False) -> LedgerReplay:
    """Every recorded event, or `session`'s (an invalid id is a usage error).

    `check_fields` reads every kept line's payload too, so that a known kind whose fields
    do not fit its class is reported (+40 % on a 100,000-event replay whose lines fit,
    ~5x when none does: docs/performance.md).
    """
    if session is None:
        read = ledger.read_all(repo, check_fields=check_fields)
        return LedgerReplay(_ordered(read.entries), read)
    from gitcorrex.replay.session_entries import fold_entries

    ledger.check_session_id(session)
    read = ledger.read_subject(repo, session_object_oid(session), check_fields=check_fields)
    events = replay(read.entries, session=session).events
    return LedgerReplay(events, read, fold_entries(session, read.entries, read.problems))


def _ordered(entries: list[ledger.LedgerEntry]) -> list[ledger.LedgerEntry]:
    """Every entry in replay order, the cyclic collector paused as during the scan: sorting
    100,000 entries makes as many keys, and each collection would walk every entry kept."""
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        return replay(entries, session=None).events
    finally:
        if collecting:
            gc.enable()
