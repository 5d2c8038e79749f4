"""The write manifest of the workspace's active step, for the hooks and `assess`.

Asked of the one session-state question (`session/state.py`): every commit and every
agent tool call asks, and the fold stored for the session's current note spares them
pydantic and pygit2 until an event is appended.

While a session's step is active, an agent may write only what that step declared; the
stage's manifest applies between steps and outside sessions. A selected session the
ledger does not hold fails closed (exit 2), like a selected stage HEAD cannot provide.
"""

from __future__ import annotations

from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository
from gitcorrex.model.write_manifest import Manifest
from gitcorrex.session.selection import SESSION_CONFIG, selected_session

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitcorrex.model.session_state import SessionState

NOTHING = "!/**"


def active_step_manifest(repo: Repository, session: str | None, *,
                         strict: bool = True) -> Manifest | None:
    """The active step's declared writes; None when no session or no step is active.

    `strict=False` (a session id an agent's payload may supply) falls back to the configured
    session when the ledger does not hold the one given; a configured one fails closed.
    """
    state = selected_state(repo, session, strict=strict)
    return step_manifest(state) if state is not None else None


def selected_state(repo: Repository, session: str | None, *,
                   strict: bool = True) -> SessionState | None:
    """The state of the session in force (`session`, else the configured one; `strict` as
    for `active_step_manifest`); None when none is selected."""
    chosen = selected_session(repo, session)
    if chosen is None:
        return None
    from gitcorrex.session.state import session_state  # only when one is selected

    state = session_state(repo, chosen)
    if not state.exists and not strict:  # fall back to the configured session
        return selected_state(repo, None) if session else None
    if not state.exists:
        raise ConfigError(f"session {chosen!r} (from --session, CORREX_SESSION or "
                          f"{SESSION_CONFIG}) is not in the ledger",
                          hint=f"fetch the ledger, or `git config --unset {SESSION_CONFIG}`")
    return state


def step_manifest(state: SessionState) -> Manifest | None:
    """The declared writes of `state`'s active step (a state already read: an agent call
    reads its session once); None when no step is active."""
    declared = step_writes(state)
    return Manifest(*declared) if declared is not None else None


def step_writes(state: SessionState) -> tuple[tuple[str, ...], str] | None:
    """The patterns and source `step_manifest` builds its manifest from (an empty step
    declares `!/**`: an empty manifest would mean unrestricted)."""
    step, writes = state.active_step, state.active_writes
    if step is None:
        return None
    source = f"step {step!r} of session {state.session!r}"
    if not writes:
        return (NOTHING,), f"{source} (declares no writes)"
    return tuple(writes), source
