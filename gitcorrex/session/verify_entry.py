"""`git correx verify`'s use case: a plain observation, or inside a session the settlement of
its active step. Orchestration lives here so `verify/` never reads the session upward.

Only the session's selection is decided first (`--session`, else `CORREX_SESSION`, else
`git config correx.session`); the fold, the plan and the settling are imported only when a
session is selected, so a plain `verify` pays nothing for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from functools import partial

from gitcorrex.git.repository import Repository
from gitcorrex.git.state import StateProbe
from gitcorrex.model.events import Provenance
from gitcorrex.session.selection import selected_session
from gitcorrex.verify.outcome import VerifyOutcome, VerifyProgress
from gitcorrex.verify.usecase import VerifyRequest, observe_workspace


def verify_workspace(
    repo: Repository,
    request: VerifyRequest,
    *,
    env: Mapping[str, str],
    clock: Callable[[], datetime],
    provenance: Provenance,
    progress: VerifyProgress,
    probe: StateProbe | None = None,
) -> VerifyOutcome:
    """Observe the workspace; inside a session (`--session`, `CORREX_SESSION` or `git config
    correx.session`) the observation also settles its active step (session/verify_step.py:
    the step's stage selects the expectation)."""
    run = partial(observe_workspace, repo, env=env, clock=clock, provenance=provenance,
                  progress=progress, probe=probe)
    session = selected_session(repo, request.session or env.get("CORREX_SESSION") or None)
    if session is None:
        return run(request)
    from gitcorrex.session.verify_step import verify_in_session

    return verify_in_session(repo, replace(request, session=session), clock=clock,
                             provenance=provenance, run=run)
