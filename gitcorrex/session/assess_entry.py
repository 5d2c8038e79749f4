"""`git correx assess`'s use case: inside a session step, a write is judged against the
step's declared writes (session/manifest.py), which manifest/ takes as an argument; it
never reads the session upward. A write in a step by a runtime actor other than the one
that started it is refused before any path is judged (session/runtime_actor.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from gitcorrex.git import Repository
from gitcorrex.manifest.assess import AssessOutcome, AssessRequest, assess_paths
from gitcorrex.model.events import Provenance
from gitcorrex.model.write_manifest import Manifest
from gitcorrex.session.manifest import selected_state, step_manifest
from gitcorrex.session.runtime_actor import refuse_foreign_actor

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitcorrex.model.session_state import SessionState


def assess_in_session(repo: Repository, request: AssessRequest, *,
                      clock: Callable[[], datetime], provenance: Callable[[], Provenance],
                      state: SessionState | None = None) -> AssessOutcome:
    """Judge the request's paths (manifest/assess.py) under the manifest in force; `state`
    is the session's state when the caller read it already (an agent call reads it once).
    ForeignActorError (exit 1) for a write in a step another runtime actor started."""
    def manifest_in_force() -> Manifest | None:
        current = state if state is not None else \
            selected_state(repo, request.session, strict=request.session is None)
        if current is None:
            return None
        if current.active_actor is not None:  # a step is active: who is writing in it?
            refuse_foreign_actor(current, provenance(), "a write")
        return step_manifest(current)

    return assess_paths(repo, request, clock=clock, provenance=provenance,
                        step_manifest=manifest_in_force)
