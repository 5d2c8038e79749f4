"""`git correx gate`'s use case: the stage's gates, with facts pinned on the session fold's
active step (gates/ asks `replay/active_step.py`; it never reads the session upward)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from gitcorrex.gates.outcome import GateOutcome
from gitcorrex.gates.usecase import GateRequest, run_gates
from gitcorrex.git.repository import Repository
from gitcorrex.git.state import StateProbe
from gitcorrex.model.events import Provenance


def run_stage_gates(repo: Repository, request: GateRequest, *, env: Mapping[str, str],
                    clock: Callable[[], datetime], provenance: Provenance,
                    probe: StateProbe | None = None) -> GateOutcome:
    """Run the stage's gates (gates/usecase.py) inside or outside a session."""
    return run_gates(repo, request, env=env, clock=clock, provenance=provenance,
                     probe=probe)
