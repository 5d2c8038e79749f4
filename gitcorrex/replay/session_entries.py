"""A session's ledger entries folded into its state: ordering, the lines the fold reads,
and the ledger's doubtful lines; pure, as every fold in replay/.

What is deferred, and why: every entry counts towards the revision, but only the kinds the
fold reads are parsed (`typed_events`), and of the observations (most of a long session:
each failed attempt records one) only passes: a typed peek at `result` costs a quarter of
reading the whole payload.
"""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex.model.event_order import session_order
from gitcorrex.model.note_lines import LedgerEntry, Problem, peek, typed_events
from gitcorrex.model.session_state import FoldProblem, SessionState
from gitcorrex.model.verification import ObservedResult, Result, VerificationFields
from gitcorrex.replay.session import FOLDED_KINDS, FOLDED_TYPES, fold_session


def fold_entries(session: str, entries: Sequence[LedgerEntry],
                 problems: Sequence[Problem] = (),
                 uncounted: frozenset[str] = frozenset()) -> SessionState:
    """Order the session's entries in session order and fold them (replay's order too);
    `uncounted`: operator decisions that do not count (see `fold_session`).

    A doubtful line in the session's note (`problems`) fails the session closed: it could
    have been a pause.
    """
    mine = sorted((e for e in entries if e.session == session), key=session_order)
    read = typed_events((e for e in mine if _folded(e)), FOLDED_TYPES)
    state = fold_session(session, read, revision=len(mine), uncounted=uncounted)
    return state.with_problems([FoldProblem(event=f"line {p.line}", seq=None, kind="ledger",
                                            reason=p.reason[:1024]) for p in problems])


def _folded(entry: LedgerEntry) -> bool:
    if entry.kind == VerificationFields.KIND:
        seen = peek(entry, ObservedResult)
        return seen is not None and seen.result is Result.PASS
    return entry.kind in FOLDED_KINDS
