"""The MCP server: each tool is one `Workspace` method, its pydantic result the tool's
structured output (the same document the command prints with `--json`).

Built on the official SDK (`mcp` 2.x, `mcp.server.MCPServer`), an optional extra:
`pip install 'git-correx[mcp]'`. In stdio mode nothing but protocol messages may reach
stdout: the SDK claims the process's stdout for the protocol and diverts `sys.stdout`,
and every command a tool runs gets stdin from /dev/null and its output through a pipe
(runner/command.py, git/process.py). Tools take names, never commands: `verify` runs the
profile's expectation (optionally another expectation the profile names), so an agent can
never pass a shell command. Errors are the tool's error result, with the hint.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from gitcorrex import __version__
from gitcorrex.api import (
    GateResult,
    PlanGrounding,
    PlanValidation,
    ShowResult,
    StateResult,
    StepStarted,
    VerifyResult,
    Workspace,
)
from gitcorrex.failure import failure_of
from gitcorrex.manifest.assess import AssessOutcome
from gitcorrex.session.status import SessionReport

if TYPE_CHECKING:
    from mcp.server import MCPServer

T = TypeVar("T")

INSTRUCTIONS = ("git correx keeps facts about workspace states in git. Call `state` for the "
                "current state key, `verify` to run the profile's expectation on it and "
                "record the result, `show` for what is known about a state, and "
                "`assess_write`/`assess_read` before writing or relying on a path.")


def build_server(root: Path) -> MCPServer:
    """The server for the work tree at `root` (found once, as `git correx` would)."""
    from mcp.server import MCPServer

    workspace = Workspace(root)
    server: MCPServer = MCPServer(name="git-correx", version=__version__,
                                  instructions=INSTRUCTIONS)

    @server.tool()
    def state() -> StateResult:
        """The workspace's state key (the tree `git add -A && git write-tree` would record),
        HEAD's tree, and whether they differ. Nothing in the repository is changed."""
        return _answer(workspace.state)

    @server.tool()
    def verify(stage: str | None = None, expect: str | None = None) -> VerifyResult:
        """Run the profile's expectation (the stage's build_expectation, or the expectation
        named by `expect`; never a command) on the current state and record the observation.
        `result` is pass, fail or unavailable; the failing output is in `event`."""
        return _answer(lambda: workspace.verify(stage=stage, expect=expect))

    @server.tool()
    def show(rev: str | None = None) -> ShowResult:
        """Every event recorded on REV's tree (default: the current state), newest first.
        No events means unverified, never passed."""
        return _answer(lambda: workspace.show(rev))

    @server.tool()
    def assess_write(paths: list[str], stage: str | None = None) -> AssessOutcome:
        """Would writing these paths (relative to the work tree's top level) be allowed by
        the manifest in force? Each path gets a verdict, its rule and the fix."""
        return _answer(lambda: workspace.assess_write(paths, stage=stage))

    @server.tool()
    def assess_read(paths: list[str]) -> AssessOutcome:
        """Do these paths exist, so that relying on them is safe?"""
        return _answer(lambda: workspace.assess_read(paths))

    @server.tool()
    def session_status(session: str | None = None) -> SessionReport:
        """The session's plan, steps, baseline and pause (default: the selected session)."""
        return _answer(lambda: workspace.session(session))

    @server.tool()
    def step_start(step: str, session: str | None = None,
                   expect_revision: int | None = None) -> StepStarted:
        """Start STEP of the session (default: the selected one): its dependencies must be
        verified and the workspace on the session's baseline; a refusal says why."""
        return _answer(lambda: workspace.step_start(step, session, expect_revision))

    @server.tool()
    def gate(stage: str | None = None, artifacts: list[str] | None = None) -> GateResult:
        """Run the stage's post-stage gates in order (produces, grounding, echo, static
        analysis); `artifacts` as KIND=FILE. The failing gate's feedback is verbatim."""
        return _answer(lambda: workspace.gate(stage, artifacts=artifacts or ()))

    @server.tool()
    def plan_validate(plan: str) -> PlanValidation:
        """Decide the step integrity of the plan file PLAN (relative to the top level) and
        record plan_validated; `accepted`, the route and the findings say what to fix."""
        return _answer(lambda: workspace.plan_validate(plan))

    @server.tool()
    def plan_ground(plan: str) -> PlanGrounding:
        """Check the plan's declared writes, references, symbols, prerequisites and ordering
        against the current state; record plan_grounding_evaluated."""
        return _answer(lambda: workspace.plan_ground(plan))

    return server


def _answer(call: Callable[[], T]) -> T:
    """The call's result; an expected failure (a CorrexError, an environmental fault) becomes
    the tool's error result in the one boundary's words (gitcorrex/failure.py: the model
    reads the message and the hint); a bug or a stop stays the SDK's opaque crash result."""
    from mcp.server.mcpserver.exceptions import ToolError

    try:
        return call()
    except Exception as exc:
        failure = failure_of(exc)
        if not failure.is_expected:
            raise
        hint = f" (hint: {failure.hint})" if failure.hint else ""
        raise ToolError(f"{failure.message}{hint}") from None
