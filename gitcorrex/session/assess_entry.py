"""`git correx assess`'s use case: inside a session step, a write is judged against the
step's declared writes (session/manifest.py), which manifest/ takes as an argument; it
never reads the session upward."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from gitcorrex.git import Repository
from gitcorrex.manifest.assess import AssessOutcome, AssessRequest, assess_paths
from gitcorrex.model.events import Provenance
from gitcorrex.model.write_manifest import Manifest
from gitcorrex.session.manifest import active_step_manifest, step_manifest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitcorrex.model.session_state import SessionState


def assess_in_session(repo: Repository, request: AssessRequest, *,
                      clock: Callable[[], datetime], provenance: Callable[[], Provenance],
                      state: SessionState | None = None) -> AssessOutcome:
    """Judge the request's paths (manifest/assess.py) under the manifest in force; `state`
    is the session's state when the caller read it already (an agent call reads it once)."""
    def manifest_in_force() -> Manifest | None:
        if state is not None:
            return step_manifest(state)
        return active_step_manifest(repo, request.session, strict=request.session is None)

    return assess_paths(repo, request, clock=clock, provenance=provenance,
                        step_manifest=manifest_in_force)
