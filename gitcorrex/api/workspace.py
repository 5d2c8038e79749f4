"""`Workspace(path)`: one repository's work tree, asked what the CLI asks.

Each method opens nothing but what its command would, calls the same use case with the
real clock, environment and identity, and returns that command's `--json` model. Paths
given to `assess_*` are relative to the top level of the work tree (or absolute).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.api.results import ShowResult, StateResult, VerifyResult
from gitcorrex.clock import now_utc
from gitcorrex.git import Repository, discover

if TYPE_CHECKING:
    from gitcorrex.api.flow_results import GateResult, PlanGrounding, PlanValidation, StepStarted
    from gitcorrex.manifest.assess import AssessOutcome
    from gitcorrex.session.status import SessionReport


class Workspace:
    """A work tree found from `path` the way git finds it (any directory inside it)."""

    def __init__(self, path: str | os.PathLike[str] = ".") -> None:
        self.repo: Repository = discover(Path(path).resolve())

    @property
    def root(self) -> Path:
        return self.repo.root

    def state(self) -> StateResult:
        """The state key: the tree `git add -A && git write-tree` would record."""
        from gitcorrex.git import compute_state

        return StateResult.of(compute_state(self.repo))

    def verify(self, stage: str | None = None, expect: str | None = None,
               session: str | None = None) -> VerifyResult:
        """Run the profile's expectation (by name only: never a command) on the current
        state and record the observation; inside a session it settles the active step."""
        from gitcorrex.git import StateProbe
        from gitcorrex.ledger.provenance import current_provenance
        from gitcorrex.session.verify_entry import verify_workspace
        from gitcorrex.verify.outcome import SilentProgress
        from gitcorrex.verify.request import VerifyContext, VerifyRequest

        request = VerifyRequest(stage=stage, expect=expect, session=session)
        context = VerifyContext(dict(os.environ), now_utc, current_provenance(self.repo),
                                SilentProgress())
        with StateProbe(self.repo).begin() as probe:
            outcome = verify_workspace(self.repo, request, context, probe=probe)
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
        from gitcorrex.session.status import session_status

        return session_status(self.repo, self._session(session_id))

    def step_start(self, step: str, session: str | None = None,
                   expect_revision: int | None = None) -> StepStarted:
        """Make `step` the active step of the session (its dependencies verified, the
        workspace on the baseline); TransitionRefusedError says why not."""
        from gitcorrex.api.flow_results import StepStarted
        from gitcorrex.ledger.provenance import current_provenance
        from gitcorrex.session.start import start_step

        started = start_step(self.repo, self._session(session), step,
                             expect_revision=expect_revision, now=now_utc(),
                             provenance=current_provenance(self.repo))
        return StepStarted.of(started)

    def gate(self, stage: str | None = None, session: str | None = None,
             artifacts: Sequence[str] = ()) -> GateResult:
        """Run the stage's gates in order; `artifacts` as `KIND=FILE` (FILE relative to the
        work tree's top level), as `gate --artifact` takes them."""
        from gitcorrex.api.flow_results import GateResult
        from gitcorrex.gates.artifacts import parse_artifact_options
        from gitcorrex.gates.run_gates import GateRequest, run_gates
        from gitcorrex.git import StateProbe
        from gitcorrex.ledger.provenance import current_provenance

        request = GateRequest(stage, session, parse_artifact_options(tuple(artifacts),
                                                                     self.root))
        with StateProbe(self.repo).begin() as probe:
            outcome = run_gates(self.repo, request, env=dict(os.environ), clock=now_utc,
                                provenance=current_provenance(self.repo), probe=probe)
        return GateResult.of(outcome)

    def plan_validate(self, plan: str | os.PathLike[str]) -> PlanValidation:
        """Decide the plan's step integrity and record `plan_validated`."""
        from gitcorrex.api.flow_results import PlanValidation
        from gitcorrex.ledger.provenance import current_provenance
        from gitcorrex.plan.validate import validate_plan

        outcome = validate_plan(self.repo, self.root / plan, now=now_utc(),
                                provenance=current_provenance(self.repo))
        return PlanValidation.of(outcome)

    def plan_ground(self, plan: str | os.PathLike[str]) -> PlanGrounding:
        """Ground the plan on the current state key; record `plan_grounding_evaluated`."""
        from gitcorrex.api.flow_results import PlanGrounding
        from gitcorrex.ledger.provenance import current_provenance
        from gitcorrex.plan.grounding.ground import ground_plan

        outcome = ground_plan(self.repo, self.root / plan, state_key=self.state().state_key,
                              now=now_utc(), provenance=current_provenance(self.repo))
        return PlanGrounding.of(outcome)

    def _session(self, given: str | None) -> str:
        from gitcorrex.session.selection import chosen_session

        return chosen_session(self.repo, given or os.environ.get("CORREX_SESSION") or None)

    def _assess(self, action: str, paths: Sequence[str], stage: str | None,
                session: str | None) -> AssessOutcome:
        from gitcorrex.errors import UsageError
        from gitcorrex.ledger.provenance import current_provenance
        from gitcorrex.manifest.assess import AssessRequest
        from gitcorrex.session.assess_entry import assess_in_session

        if not paths:
            raise UsageError(f"assess_{action} needs at least one path")
        chosen = session or os.environ.get("CORREX_SESSION") or None
        request = AssessRequest(action, tuple(paths), self.root, stage, chosen)
        return assess_in_session(self.repo, request, clock=now_utc,
                                 provenance=lambda: current_provenance(self.repo))
