"""`verify` outside any session, on the plain path (`verify/plain.py`) when it can answer.

Only the session's selection is decided here (`--session`, `CORREX_SESSION`, `git config
correx.session`: no fold, no models); inside a session, or when the plain path declines,
the caller runs `verify_entry.verify_workspace` on the same probe.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from gitcorrex.git.repository import Repository
from gitcorrex.git.state import StateProbe
from gitcorrex.session.selection import selected_session
from gitcorrex.verify.outcome import VerifyOutcome, VerifyProgress
from gitcorrex.verify.plain import verify_plain


def verify_outside_session(repo: Repository, probe: StateProbe, *, stage: str | None,
                           expect: str | None, session: str | None, env: Mapping[str, str],
                           clock: Callable[[], datetime],
                           progress: VerifyProgress) -> VerifyOutcome | None:
    """The plain observation when no session is selected and the plain path can record it;
    None otherwise (nothing ran)."""
    if selected_session(repo, session or env.get("CORREX_SESSION") or None) is not None:
        return None
    return verify_plain(repo, probe, stage=stage, expect=expect, env=env, clock=clock,
                        progress=progress)
