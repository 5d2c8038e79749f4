"""Where `verify` enters the session machinery, cheaply: most verifications are in no session.

Only the session's selection is decided first (`--session`, else `CORREX_SESSION`, else
`git config correx.session`); the fold, the plan and the settling are imported only when a
session is selected, so a plain `verify` pays nothing for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from gitcorrex.git.repository import Repository
from gitcorrex.model.events import Provenance
from gitcorrex.session.selection import selected_session

if TYPE_CHECKING:
    from gitcorrex.verify.outcome import VerifyOutcome
    from gitcorrex.verify.usecase import VerifyRequest

def verify_in_workspace_session(repo: Repository, request: VerifyRequest, *,
                                env: Mapping[str, str], clock: Callable[[], datetime],
                                provenance: Provenance,
                                run: Callable[[VerifyRequest], VerifyOutcome]) -> VerifyOutcome:
    """A plain observation outside a session; inside one, settle its active step too."""
    session = selected_session(repo, request.session or env.get("CORREX_SESSION") or None)
    if session is None:
        return run(request)
    from gitcorrex.session.verify_step import verify_in_session

    return verify_in_session(repo, replace(request, session=session), clock=clock,
                             provenance=provenance, run=run)
