"""`Workspace(path)`: one repository's work tree, asked what the CLI asks.

Each method opens nothing but what its command would, calls the same use case with the
real clock, environment and identity, and returns that command's `--json` model. Paths
given to `assess_*` are relative to the top level of the work tree (or absolute).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.api.results import ShowResult, StateResult, VerifyResult
from gitcorrex.git.repository import Repository, discover_with_git

if TYPE_CHECKING:
    from gitcorrex.manifest.assess import AssessOutcome
    from gitcorrex.session.status import SessionReport


class Workspace:
    """A work tree found from `path` the way git finds it (any directory inside it)."""

    def __init__(self, path: str | os.PathLike[str] = ".") -> None:
        self.repo: Repository = discover_with_git(Path(path).resolve())

    @property
    def root(self) -> Path:
        return self.repo.root

    def state(self) -> StateResult:
        """The state key: the tree `git add -A && git write-tree` would record."""
        from gitcorrex.git.state import compute_state

        return StateResult.of(compute_state(self.repo))

    def verify(self, stage: str | None = None, expect: str | None = None,
               session: str | None = None) -> VerifyResult:
        """Run the profile's expectation (by name only: never a command) on the current
        state and record the observation; inside a session it settles the active step."""
        from gitcorrex.git.state import StateProbe
        from gitcorrex.provenance import current_provenance
        from gitcorrex.session.verify_entry import verify_workspace
        from gitcorrex.verify.outcome import SilentProgress
        from gitcorrex.verify.usecase import VerifyRequest

        request = VerifyRequest(stage=stage, expect=expect, session=session)
        with StateProbe(self.repo).begin() as probe:
            outcome = verify_workspace(
                self.repo, request, env=dict(os.environ), clock=_now,
                provenance=current_provenance(self.repo), probe=probe,
                progress=SilentProgress())
        return VerifyResult.of(outcome)

    def show(self, rev: str | None = None) -> ShowResult:
        """What the ledger holds on REV's tree, or on the current state key."""
        from gitcorrex.review.show import show_tree

        if rev is None:
            return ShowResult.of(show_tree(self.repo, rev=None,
                                           state_key=self.state().state_key))
        return ShowResult.of(show_tree(self.repo, rev=rev, state_key=None))

    def assess_write(self, paths: Sequence[str], stage: str | None = None,
                     session: str | None = None) -> AssessOutcome:
        """Would writing `paths` be allowed? BLOCKs are recorded, as `assess write` does."""
        return self._assess("write", paths, stage, session)

    def assess_read(self, paths: Sequence[str], session: str | None = None) -> AssessOutcome:
        """Do `paths` exist to be relied on? BLOCKs are recorded, as `assess read` does."""
        return self._assess("read", paths, None, session)

    def session(self, session_id: str | None = None) -> SessionReport:
        """`session status`: the folded session (`session_id`, else CORREX_SESSION, else
        `git config correx.session`) and whether its baseline still holds here."""
        from gitcorrex.session.context import chosen_session
        from gitcorrex.session.status import session_status

        chosen = chosen_session(self.repo, session_id or os.environ.get("CORREX_SESSION")
                                or None)
        return session_status(self.repo, chosen)

    def _assess(self, action: str, paths: Sequence[str], stage: str | None,
                session: str | None) -> AssessOutcome:
        from gitcorrex.errors import UsageError
        from gitcorrex.manifest.assess import AssessRequest
        from gitcorrex.provenance import current_provenance
        from gitcorrex.session.assess_entry import assess_in_session

        if not paths:
            raise UsageError(f"assess_{action} needs at least one path")
        chosen = session or os.environ.get("CORREX_SESSION") or None
        request = AssessRequest(action, tuple(paths), self.root, stage, chosen)
        return assess_in_session(self.repo, request, clock=_now,
                                 provenance=lambda: current_provenance(self.repo))


def _now() -> datetime:
    return datetime.now(timezone.utc)
