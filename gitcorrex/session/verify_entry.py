"""`git correx verify`'s use case: an observation, or inside a session the settlement of
its active step. Orchestration lives here so `verify/` never reads the session upward.

Only the session's selection is decided first (`--session`, else `CORREX_SESSION`, else
`git config correx.session`); the fold, the plan and the settling are imported only when a
session is selected, so a `verify` outside a session pays nothing for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from pathlib import Path

from gitcorrex.errors import UsageError
from gitcorrex.git import Repository, StateProbe
from gitcorrex.session.selection import selected_session
from gitcorrex.verify.observe import observe_workspace
from gitcorrex.verify.outcome import VerifyOutcome
from gitcorrex.verify.request import VerifyContext, VerifyRequest


def verify_workspace(repo: Repository, request: VerifyRequest, context: VerifyContext, *,
                     probe: StateProbe | None = None,
                     artifacts: Mapping[str, Path] | None = None) -> VerifyOutcome:
    """Observe the workspace; inside a session (`--session`, `CORREX_SESSION` or `git config
    correx.session`) the verification settles its active step (session/settlement.py).

    `artifacts` (`--artifact NAME=FILE`) feed the gates of the active step's stage; outside
    a session there is nothing they could feed (exit 2)."""
    session = selected_session(repo, request.session or context.env.get("CORREX_SESSION")
                               or None)
    if session is None:
        if artifacts:
            raise UsageError("--artifact feeds the gates of a session's active step, and no "
                             "session is selected", hint="drop --artifact, or pass --session ID")
        return observe_workspace(repo, request, context, probe=probe)
    if request.profile_from is not None:
        raise UsageError(f"--profile-from runs another profile than session {session}'s",
                         hint="verify outside the session (`--session` unset, no "
                              "CORREX_SESSION, no `git config correx.session`)")
    if probe is None:
        with StateProbe(repo) as own:
            return verify_workspace(repo, request, context, probe=own, artifacts=artifacts)
    from gitcorrex.session.verify_step import verify_in_session

    run = partial(observe_workspace, repo, context=context, probe=probe)
    return verify_in_session(repo, request.but(session=session), context,
                             artifacts=artifacts or {}, probe=probe, run=run)
