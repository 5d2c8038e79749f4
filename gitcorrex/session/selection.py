"""Which session a command is in, decided cheaply (no fold, no models): most commands run
in none, and `verify`, `assess` and the pre-commit hook should not pay for sessions then."""

from __future__ import annotations

from gitcorrex.errors import UsageError
from gitcorrex.git import Repository, config_value, set_config_value
from gitcorrex.model.session_object import check_session_id

SESSION_CONFIG = "correx.session"


def selected_session(repo: Repository, given: str | None) -> str | None:
    """`given` (flag or environment), else `git config correx.session`, else None."""
    chosen = given or config_value(repo, SESSION_CONFIG) or None
    if chosen is not None:
        check_session_id(chosen)
    return chosen


def chosen_session(repo: Repository, given: str | None) -> str:
    """The session a command acts on; exit 2 when the workspace names none."""
    chosen = selected_session(repo, given)
    if chosen is None:
        raise UsageError("no session selected",
                         hint="pass --session ID, set CORREX_SESSION, or run `git correx "
                              f"plan lock` (it sets `git config {SESSION_CONFIG}`)")
    return chosen


def remember_session(repo: Repository, session: str) -> None:
    """Make `session` the workspace's session, so the hooks and `assess` follow its step."""
    if config_value(repo, SESSION_CONFIG) != session:
        set_config_value(repo, SESSION_CONFIG, session)
