"""Which session a workspace is in, and its state folded from the ledger.

A workspace names its session with `git config correx.session` (written by `plan lock` and
`step start`); `--session ID` or `CORREX_SESSION` (read by the CLI) override it.
"""

from __future__ import annotations

from gitcorrex import ledger
from gitcorrex.errors import UsageError
from gitcorrex.git.config import config_value, set_config_value
from gitcorrex.git.repository import Repository
from gitcorrex.model.events import session_object_oid
from gitcorrex.model.session_state import SessionState
from gitcorrex.session.fold import FOLDED_KINDS, VERIFICATION_KIND, fold_session
from gitcorrex.session.fold_input import LineEvent

SESSION_CONFIG = "correx.session"
_PASS = b'"result":"pass"'


def workspace_session(repo: Repository, given: str | None) -> str | None:
    """`given` (flag or environment), else `git config correx.session`, else None."""
    chosen = given or config_value(repo, SESSION_CONFIG) or None
    if chosen is not None:
        ledger.check_session_id(chosen)
    return chosen


def chosen_session(repo: Repository, given: str | None) -> str:
    """The session a command acts on; exit 2 when the workspace names none."""
    chosen = workspace_session(repo, given)
    if chosen is None:
        raise UsageError("no session selected",
                         hint="pass --session ID, set CORREX_SESSION, or run `git correx "
                              f"plan lock` (it sets `git config {SESSION_CONFIG}`)")
    return chosen


def remember_session(repo: Repository, session: str) -> None:
    """Make `session` the workspace's session, so the hooks and `assess` follow its step."""
    if config_value(repo, SESSION_CONFIG) != session:
        set_config_value(repo, SESSION_CONFIG, session)


def read_state(repo: Repository, session: str) -> SessionState:
    """The session's state folded from the ledger as it is now."""
    read = ledger.read_subject(repo, session_object_oid(session))
    return fold_entries(session, read.entries)


def fold_entries(session: str, entries: list[ledger.LedgerEntry]) -> SessionState:
    """Order the session's entries by seq and fold them (what replay does too).

    Only the lines the fold reads are parsed in full: every event counts towards the
    revision, but a failed observation (most of a long session) changes nothing, and its
    canonical line says so without parsing (`"result":"pass"` appears in a pass only).
    """
    mine = sorted((e for e in entries if e.session == session),
                  key=lambda e: (e.seq is None, e.seq or 0, e.at, e.id))
    return fold_session(session, [LineEvent.parse(e.line) for e in mine if _folded(e)],
                        revision=len(mine))


def _folded(entry: ledger.LedgerEntry) -> bool:
    if entry.kind == VERIFICATION_KIND:
        return _PASS in entry.line
    return entry.kind in FOLDED_KINDS


def state_at(view: ledger.LedgerView, session: str) -> SessionState:
    """The session's state at one ledger tip (inside a compare-and-swap attempt)."""
    return fold_session(session, view.session_events(session))


def existing_state(repo: Repository, session: str) -> SessionState:
    """The state of a session that must exist; exit 2 naming the id otherwise."""
    state = read_state(repo, session)
    if not state.exists:
        raise UsageError(f"no session {session!r} in the ledger",
                         hint="list sessions with `git correx session list`")
    return state
