"""One agent hook call, whatever agent sent it: what happened, what to judge, what to answer.

Every adapter turns its payload into a `HookRequest` and a `Verdict` back into a `Reply`; the
judge in between never sees an agent's field names. Named tuples, no pydantic, no
dataclasses (which load `inspect`, ~6 ms): the PreToolUse path runs on every tool call and
must start in tens of milliseconds.
"""

from __future__ import annotations

from typing import Final, NamedTuple


class Event:
    """What happened on the agent's side (`HookRequest.event`). Plain strings grouped under
    one name, not an Enum: the request stays a cheap tuple on the per-call path."""

    PRE_TOOL: Final = "pre_tool"  # before a tool runs: may deny it
    POST_TOOL: Final = "post_tool"  # after a tool ran: may report what it changed
    STOP: Final = "stop"  # the agent wants to end its turn: may keep it working
    IGNORED: Final = "ignored"  # an event we do not judge (allowed)


class Action:
    """What a tool call does (`HookRequest.action`): plain strings, as `Event`."""

    WRITE: Final = "write"
    READ: Final = "read"
    SHELL: Final = "shell"


class HookRequest(NamedTuple):
    """`action` write/read (file tools: `paths` as the tool names them), shell (a command
    whose writes are only known afterwards; before it runs, its text is `command`), or None
    (a tool we do not judge).

    `conversation` is the agent's own session id: recorded, never taken for a correx session.
    `last_message` is the agent's final message of the turn on a stop event (None: the host
    sends none), read for a completion claim (claims.py).
    """

    agent: str
    event: str
    hook_event: str
    tool: str | None = None
    action: str | None = None
    paths: tuple[str, ...] = ()
    command: str | None = None
    cwd: str | None = None
    conversation: str | None = None
    stop_hook_active: bool = False
    last_message: str | None = None


class Verdict(NamedTuple):
    """`blocked` with the reason the model reads (what, why, what to do instead); an
    allowed verdict may carry a `notice` for the person (a Stop released by the block cap)."""

    blocked: bool
    reason: str = ""
    notice: str = ""


ALLOW = Verdict(False)


class Reply(NamedTuple):
    """What the hook process answers: its exit code, stdout and stderr."""

    exit_code: int
    stdout: str = ""
    stderr: str = ""


class HookOptions(NamedTuple):
    """The command line's choices: `session` from --session or CORREX_SESSION (else
    `git config correx.session`), `stage` from --stage (else `git config correx.stage`)."""

    stage: str | None = None
    session: str | None = None
    record_all: bool = False
