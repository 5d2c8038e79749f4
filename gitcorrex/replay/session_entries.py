"""A session's ledger entries folded into its state: ordering, the lines the fold reads,
and the ledger's doubtful lines; pure, as every fold in replay/.

What is deferred, and why: every entry counts towards the revision, but only the kinds the
fold reads are parsed (`typed_events`), and of the observations (most of a long session:
each failed attempt records one) only passes: a typed peek at `result` costs a quarter of
reading the whole payload.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from gitcorrex.model.event_order import session_order
from gitcorrex.model.note_lines import LedgerEntry, Problem, peek, typed_events
from gitcorrex.model.session_state import FoldProblem, SessionState
from gitcorrex.model.verification import ObservedResult, Result, VerificationFields
from gitcorrex.replay.session import (
    FOLDED_KINDS,
    FOLDED_TYPES,
    continue_session_fold,
    fold_session_kept,
)


def fold_entries(session: str, entries: Sequence[LedgerEntry],
                 problems: Sequence[Problem] = (),
                 uncounted: frozenset[str] = frozenset()) -> SessionState:
    """Order the session's entries in session order and fold them (replay's order too);
    `uncounted`: operator decisions that do not count (see `fold_session`).

    A doubtful line in the session's note (`problems`) fails the session closed: it could
    have been a pause.
    """
    return fold_entries_kept(session, entries, problems, uncounted)[0]


def fold_entries_kept(session: str, entries: Sequence[LedgerEntry],
                      problems: Sequence[Problem] = (),
                      uncounted: frozenset[str] = frozenset()
                      ) -> tuple[SessionState, dict[str, Any]]:
    """`fold_entries`, and what `continue_entries` needs to go on from it: the fold's
    working state, the session's revision and highest seq, the note's problems, and
    whether every entry had a seq (a seq-less one sorts after every numbered one, so a
    later numbered event would not come after it: such a fold is never continued)."""
    mine = sorted((e for e in entries if e.session == session), key=session_order)
    read = typed_events((e for e in mine if _folded(e)), FOLDED_TYPES)
    state, kept = fold_session_kept(session, read, revision=len(mine), uncounted=uncounted)
    noted = _noted(problems)
    resume = {"fold": kept, "revision": len(mine), "noted": [asdict(p) for p in noted],
              "last_seq": max((e.seq or 0 for e in mine), default=0),
              "numbered": all(e.seq is not None for e in mine) and not uncounted}
    return state.with_problems(noted), resume


def continue_entries(session: str, resume: dict[str, Any],
                     appended: Sequence[LedgerEntry]) -> tuple[SessionState, dict[str, Any]] | None:
    """The state `fold_entries` would give for the entries `resume` was kept for plus
    `appended`, folding only `appended`; None when that cannot be known without the whole
    note (a seq-less entry, one not after the last seq, a record this version did not
    keep): the caller folds from scratch."""
    try:
        mine = sorted((e for e in appended if e.session == session), key=session_order)
        last = int(resume["last_seq"])
        if not resume["numbered"] or any(e.seq is None or e.seq <= last for e in mine):
            return None
        read = typed_events((e for e in mine if _folded(e)), FOLDED_TYPES)
        revision = int(resume["revision"]) + len(mine)
        state, kept = continue_session_fold(resume["fold"], read, revision=revision)
        noted = [FoldProblem(**problem) for problem in resume["noted"]]
    except (KeyError, TypeError, ValueError):
        return None
    seqs = [e.seq for e in mine if e.seq is not None]
    return state.with_problems(noted), {**resume, "fold": kept, "revision": revision,
                                        "last_seq": max([last, *seqs])}


def _noted(problems: Sequence[Problem]) -> list[FoldProblem]:
    return [FoldProblem(event=f"line {p.line}", seq=None, kind="ledger", reason=p.reason[:1024])
            for p in problems]


def _folded(entry: LedgerEntry) -> bool:
    if entry.kind == VerificationFields.KIND:
        seen = peek(entry, ObservedResult)
        return seen is not None and seen.result is Result.PASS
    return entry.kind in FOLDED_KINDS
