"""Only the runtime actor that started a step claims or writes in it (seed 004: the runtime
actor is rechecked before a claim is admitted or a mutation made).

The step's actor is who recorded its `step_started`: git identity, host and the runtime's
name (`CORREX_RUNTIME`, which an orchestrator sets when it launches an agent and the agent's
hooks and shells inherit). Not the process id: every hook call and command is a process of
its own. Before a blocker claim (`pause --claim`), a write `assess` judges (an agent's file
tool, before or after it ran) and an agent's shell call inside the step, the actor doing it
is compared with the step's; any difference is refused (exit 1; an agent's call is denied)
naming both. Two runtimes of one user on one host are told apart only when they are named:
without `CORREX_RUNTIME` identity and host are all there is to compare.
"""

from __future__ import annotations

from collections.abc import Mapping

from gitcorrex.errors import TransitionRefusedError
from gitcorrex.git import Repository
from gitcorrex.model.provenance import Provenance
from gitcorrex.model.session_state import RuntimeActor, SessionState


class ForeignActorError(TransitionRefusedError):
    """A claim or write in a step by a runtime actor other than the one that started it."""


def actor_of(provenance: Provenance) -> RuntimeActor:
    """The runtime actor `provenance` stamps on what this process records."""
    return _runtime_actor(provenance.actor)


def current_actor(repo: Repository) -> RuntimeActor:
    """This process's runtime actor without the rest of its provenance (no `git --version`):
    `actor_of(current_provenance(repo))`, from the same `process_actor`."""
    from gitcorrex.ledger.provenance import process_actor

    return _runtime_actor(process_actor(repo))


def _runtime_actor(actor: Mapping[str, str | None]) -> RuntimeActor:
    return RuntimeActor(name=actor.get("name"), email=actor.get("email"),
                        host=str(actor.get("host")), runtime_name=actor.get("runtime_name"))


def refuse_foreign_actor(state: SessionState, provenance: Provenance, doing: str) -> None:
    """ForeignActorError (exit 1) when a step is active and `provenance`'s actor is not the
    one that started it; nothing to compare between steps (or for a start that predates the
    record of its actor)."""
    started = state.active_actor
    if state.active_step is None or started is None:
        return
    acting = actor_of(provenance)
    if acting == started:
        return
    raise ForeignActorError(
        f"{doing} in step {state.active_step} of session {state.session} by {acting}, but "
        f"the step was started by {started}: only the runtime actor that started a step "
        "claims or writes in it",
        hint="act from the runtime that started the step (the same git identity, host and "
             "CORREX_RUNTIME), or wait until the step is settled")
