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
from gitcorrex.replay.session_entries import fold_entries
from gitcorrex.session.selection import SESSION_CONFIG, selected_session


def workspace_session(repo: Repository, given: str | None) -> str | None:
    """`given` (flag or environment), else `git config correx.session`, else None."""
    return selected_session(repo, given)


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
    return fold_entries(session, read.entries, read.problems)


def state_at(repo: Repository, view: ledger.LedgerView, session: str) -> SessionState:
    """The session's state at one ledger tip (inside a compare-and-swap attempt)."""
    scanned = view.scanned_on(session_object_oid(session))
    return fold_entries(session, scanned.entries, scanned.problems)


def existing_state(repo: Repository, session: str) -> SessionState:
    """The state of a session that must exist; exit 2 naming the id otherwise."""
    state = read_state(repo, session)
    if not state.exists:
        raise UsageError(f"no session {session!r} in the ledger",
                         hint="list sessions with `git correx session list`")
    return state
