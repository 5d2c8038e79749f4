"""`git correx session status`: the session's state (the one question, `session/state.py`)
and what replay cannot say: whether this workspace is on its baseline, is verified under
the session's locked profile, and still holds that profile.

A plain dataclass like the state it carries: the operator and the orchestrator poll it
between every two steps, and the common answer is a stored fold and one scan of the work
tree, with no model loaded.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.git import Repository, compute_state, in_background
from gitcorrex.model.session_state import SessionState, SessionStatus
from gitcorrex.profiles.profile_file import tree_profiles
from gitcorrex.session.state import existing_state, uncounted_in

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class WorkspaceView:
    """The current state key; whether the session's baseline is it; whether it carries a
    passing build observation under the locked profile (`verified`: what `step start`
    needs); whether it holds the locked profile (`profile_bound`)."""

    state_key: str
    baseline_valid: bool
    verified: bool
    profile_bound: bool


@dataclass(frozen=True)
class SessionReport:
    """`state` is exactly what `replay --session ID --json` prints as its `state`."""

    state: SessionState
    workspace: WorkspaceView
    uncounted: tuple[str, ...] = ()  # decisions that do not count (signed decisions required)

    @property
    def invalid(self) -> bool:
        """A malformed session event: nothing may advance (the command exits 1)."""
        return self.state.status is SessionStatus.INVALID

    def as_json(self) -> dict[str, Any]:
        """The `--json` document."""
        here = self.workspace
        workspace = {"state_key": here.state_key, "baseline_valid": here.baseline_valid,
                     "verified": here.verified, "profile_bound": here.profile_bound}
        document: dict[str, Any] = {"state": self.state.as_json(), "workspace": workspace}
        if self.uncounted:
            document["uncounted_decisions"] = list(self.uncounted)
        return document


def session_status(repo: Repository, session: str) -> SessionReport:
    """The folded state plus the workspace's view of its baseline; exit 2 for a session the
    ledger does not hold."""
    measuring = in_background(lambda: compute_state(repo).state_key, name="correx-state")
    try:
        state = existing_state(repo, session)
    finally:
        key = measuring()  # never leave the measurement (and its index lock) behind
    valid = state.baseline is not None and state.baseline.state_key == key
    bound = state.profile is not None and tree_profiles(repo, [key])[key] == state.profile
    uncounted = tuple(decision.describe() for decision in uncounted_in(repo, session))
    return SessionReport(state, WorkspaceView(key, valid, state.is_verified(key), bound),
                         uncounted)
