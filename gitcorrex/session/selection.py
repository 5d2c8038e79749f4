"""Which session a command is in, decided cheaply (no fold, no models): most commands run
in none, and `verify`, `assess` and the pre-commit hook should not pay for sessions then."""

from __future__ import annotations

from gitcorrex.git.config import config_value
from gitcorrex.git.repository import Repository
from gitcorrex.model.session_object import check_session_id

SESSION_CONFIG = "correx.session"


def selected_session(repo: Repository, given: str | None) -> str | None:
    """`given` (flag or environment), else `git config correx.session`, else None."""
    chosen = given or config_value(repo, SESSION_CONFIG) or None
    if chosen is not None:
        check_session_id(chosen)
    return chosen
