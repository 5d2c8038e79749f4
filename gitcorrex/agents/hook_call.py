"""What every judgement of an agent call needs: the repository the call is about, the
correx session in force (never the agent's own id), and the record of the call itself."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.agents.payload import PayloadError
from gitcorrex.agents.request import HookOptions, HookRequest
from gitcorrex.git import Repository
from gitcorrex.model.repo_paths import printable_path

if TYPE_CHECKING:
    from gitcorrex.model.assessment import AgentCall
    from gitcorrex.model.session_state import SessionState

MAX_CONVERSATION = 200


def call_base(request: HookRequest, *, default: Path) -> Path:
    """The directory the call's relative paths mean: the payload's `cwd`, if any."""
    if request.cwd is None:
        return default
    base = Path(request.cwd)
    if not base.is_dir():
        raise PayloadError(f"hook payload: cwd {printable_path(request.cwd)} is not a "
                           "directory")
    return base


def agent_call(request: HookRequest) -> AgentCall:
    """The call as the assessment event records it; the conversation id is bounded text."""
    from gitcorrex.model.assessment import AgentCall

    conversation = request.conversation
    if conversation is not None:
        conversation = printable_path(conversation)[:MAX_CONVERSATION]
    return AgentCall(name=request.agent, hook_event=request.hook_event, tool=request.tool,
                     conversation=conversation)


def correx_session(repo: Repository, options: HookOptions, *,
                   read: SessionState | None = None) -> SessionState | None:
    """The state of the session an agent call belongs to: `--session`/CORREX_SESSION, else
    `git config correx.session`; never the agent's own id; None when none is selected. One
    the ledger does not hold fails closed (exit 2), so no event can conjure a session into
    existence. Asked once per call (`session/state.py`): the call's every judgement —
    manifest, baseline — is made on this one state (`read`: the state of the selected
    session, already read by the allow path)."""
    from gitcorrex.git import config_value
    from gitcorrex.hooks import SESSION_CONFIG

    chosen = options.session or config_value(repo, SESSION_CONFIG) or None
    if chosen is None:
        return None
    from gitcorrex.errors import ConfigError
    from gitcorrex.session.selection import selected_session
    from gitcorrex.session.state import session_state

    chosen = selected_session(repo, chosen)  # checks the id's form
    if chosen is not None and read is not None and read.session == chosen:
        state: SessionState | None = read
    else:
        state = session_state(repo, chosen) if chosen is not None else None
    if state is not None and not state.exists:
        raise ConfigError(f"session {chosen!r} (from --session, CORREX_SESSION or "
                          f"{SESSION_CONFIG}) is not in the ledger",
                          hint="start it with `git correx plan lock`, fetch the ledger, or "
                               f"`git config --unset {SESSION_CONFIG}`")
    return state
