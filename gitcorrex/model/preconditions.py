"""Kind-specific fields of early precondition signals and the operator's answer to them.

Repeated `REFERENCE_EXISTS` blocks for a path the build needs mean the workspace lacks a
prerequisite, not that the agent is careless: one `workspace_precondition_failed` fact
routes the step to recovery instead of burning attempts. The gates record it; sessions
fold it (a dependent step may not start until the path exists or an operator clarifies).
"""

from __future__ import annotations

from enum import Enum

from pydantic import Field

from gitcorrex.model.record import EventPayload


class PreconditionSource(str, Enum):
    """Why the path matters: a profile command `requires` it, or a build manifest names it."""

    PROFILE_REQUIRES = "profile_requires"
    BUILD_MANIFEST = "build_manifest"


class PreconditionFailed(EventPayload):
    """`workspace_precondition_failed`: `path` was looked for `attempts` times and is absent.

    `named_by` is the profile command name or the manifest file that names the path;
    `blocks` are the ids of the `tool_call_assessed` events that found it missing.
    """

    KIND = "workspace_precondition_failed"

    path: str = Field(min_length=1, max_length=4096)
    source: PreconditionSource
    named_by: str = Field(min_length=1, max_length=1024)
    attempts: int = Field(ge=1)
    blocks: list[str]


class PreconditionClarified(EventPayload):
    """`precondition_clarified`: an operator says the missing `path` is not a blocker."""

    KIND = "precondition_clarified"

    path: str = Field(min_length=1, max_length=4096)
    reason: str = Field(min_length=1, max_length=1024)
