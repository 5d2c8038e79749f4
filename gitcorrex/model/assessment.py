"""Kind-specific fields of `tool_call_assessed`: one verdict on one attempted write or read.

Recorded by the pre-commit hook (a commit's paths), `git correx assess` (an agent's tool call
before it happens) and `git correx check` (a CI range); BLOCKs always, ALLOWs on request.
"""

from __future__ import annotations

from enum import Enum

from gitcorrex.model.record import EventPayload, Record


class Verdict(str, Enum):
    ALLOW = "ALLOW"
    BLOCK = "BLOCK"


class Rule(str, Enum):
    """Which rule decided; ALLOW when none objected."""

    ALLOW = "ALLOW"
    PATH_OUTSIDE_MANIFEST = "PATH_OUTSIDE_MANIFEST"
    PATH_OUTSIDE_WORKSPACE = "PATH_OUTSIDE_WORKSPACE"
    PATH_NOT_CANONICAL = "PATH_NOT_CANONICAL"
    REFERENCE_EXISTS = "REFERENCE_EXISTS"


class PathVerdict(Record):
    """One path: what was attempted on it and what was decided."""

    path: str
    change: str
    rule: Rule
    detail: str


class AgentCall(Record):
    """The agent hook call an assessment judged. `conversation` is the agent's own session
    id (Claude Code's `session_id`, Cursor's `conversation_id`): recorded for the reader,
    never a correx session."""

    name: str
    hook_event: str
    tool: str | None
    conversation: str | None


class AssessmentFields(EventPayload):
    """`origin`: pre-commit, pre-merge-commit, pre-push, assess, check, or post-tool (the
    workspace after an agent's shell call). `agent` is set for an agent hook's call only."""

    KIND = "tool_call_assessed"
    OMIT_WHEN_NONE = frozenset({"agent"})

    origin: str
    action: str
    verdict: Verdict
    rule: Rule
    manifest_source: str
    manifest: list[str]
    paths: list[PathVerdict]
    paths_omitted: int
    commit: str | None
    agent: AgentCall | None = None
