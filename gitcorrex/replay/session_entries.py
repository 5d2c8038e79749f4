"""A session's ledger entries folded into its state: ordering, the lines the fold reads,
and the ledger's doubtful lines; pure, as every fold in replay/."""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex.model.note_lines import LedgerEntry, Problem
from gitcorrex.model.session_state import FoldProblem, SessionState, SessionStatus
from gitcorrex.model.verification import VerificationFields
from gitcorrex.replay.fold_input import LineEvent
from gitcorrex.replay.session import FOLDED_KINDS, fold_session

_PASS = b'"result":"pass"'


def fold_entries(session: str, entries: list[LedgerEntry],
                 problems: Sequence[Problem] = ()) -> SessionState:
    """Order the session's entries by seq and fold them (what replay does too).

    Only the lines the fold reads are parsed in full: every event counts towards the
    revision, but a failed observation (most of a long session) changes nothing, and its
    canonical line says so without parsing (`"result":"pass"` appears in a pass only).
    A doubtful line in the session's note (`problems`) fails the session closed: it could
    have been a pause.
    """
    mine = sorted((e for e in entries if e.session == session),
                  key=lambda e: (e.seq is None, e.seq or 0, e.at, e.id))
    state = fold_session(session, [LineEvent.parse(e.line) for e in mine if _folded(e)],
                         revision=len(mine))
    if not problems:
        return state
    found = [FoldProblem(event=f"line {p.line}", seq=None, kind="ledger",
                         reason=p.reason[:1024]) for p in problems]
    return state.model_copy(update={"problems": [*state.problems, *found],
                                    "status": SessionStatus.INVALID})


def _folded(entry: LedgerEntry) -> bool:
    if entry.kind == VerificationFields.KIND:
        return _PASS in entry.line
    return entry.kind in FOLDED_KINDS
