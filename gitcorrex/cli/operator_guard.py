"""Layer 2 of the operator decisions: an operator command refuses to run inside a known
agent runtime, and refuses to record a decision that would not count.

Coding agents mark the shells their tools run with an environment variable, which every
process started from there inherits: a script the agent wrote and ran, `python -c`, a
git alias. When the command line is an operator command (`model/operator_commands.py`, the
table the agent hooks read too) and one of these markers is set, nothing runs: exit 1,
naming the marker and what a person does instead (their own terminal).

There is no override. Whatever this process could be told (a flag, a variable, a file),
an agent with a shell could tell it as well, so an override would be the agent's too; a
person simply runs the command outside the agent. The markers stop an agent going through
the front door, not one that clears its environment first (`env -u CLAUDECODE …`): the
agent hooks deny such a call before it runs, and signed decisions (layer 3) do not count a
decision the person's key did not sign.

With `correx.requireSignedDecisions` true, a decision recorded unsigned would not count:
unless `correx.sign` is true the command refuses with exit 2 before recording anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gitcorrex.errors import ConfigError, OperatorRefusedError
from gitcorrex.model.operator_commands import OperatorCommand, operator_command


@dataclass(frozen=True)
class AgentRuntime:
    """A coding agent and the variables it sets (non-empty) in the shells it runs."""

    agent: str
    markers: tuple[str, ...]


# What each supported agent sets for the commands its shell tool runs (docs/agents/README.md).
AGENT_RUNTIMES: tuple[AgentRuntime, ...] = (
    AgentRuntime("Claude Code", ("CLAUDECODE",)),
    AgentRuntime("Codex", ("CODEX_THREAD_ID", "CODEX_CI", "CODEX_SANDBOX",
                           "CODEX_SANDBOX_NETWORK_DISABLED")),
    AgentRuntime("Gemini CLI", ("GEMINI_CLI",)),
    AgentRuntime("Cursor", ("CURSOR_AGENT",)),
    AgentRuntime("Copilot CLI", ("COPILOT_CLI",)),
)


def agent_marker(environ: Mapping[str, str]) -> tuple[AgentRuntime, str] | None:
    """The first agent runtime whose marker `environ` sets (to anything but empty)."""
    for runtime in AGENT_RUNTIMES:
        for marker in runtime.markers:
            if environ.get(marker):
                return runtime, marker
    return None


def guard_operator_command(args: Sequence[str], environ: Mapping[str, str]) -> None:
    """Raise before an operator command runs inside an agent, or would record a decision
    that does not count; nothing for any other command."""
    command = operator_command(args)
    if command is None:
        return
    found = agent_marker(environ)
    if found is not None:
        runtime, marker = found
        raise OperatorRefusedError(
            f"`{command.name}` records a decision reserved to people, and this process runs "
            f"inside {runtime.agent} ({marker}={environ[marker]!r} is set): an agent may not "
            "make it",
            hint="run it yourself from your own terminal, outside the agent "
                 "(docs/plan-authority.md, operator decisions)")
    _refuse_unsigned(command)


def _refuse_unsigned(command: OperatorCommand) -> None:
    """With signed decisions required, only a signed ledger commit records one that counts."""
    from gitcorrex.cli.options import start_dir
    from gitcorrex.errors import NotARepositoryError
    from gitcorrex.git import (
        DECISIONS_CONFIG,
        SIGN_CONFIG,
        are_signed_decisions_required,
        discover,
        is_signing_enabled,
    )

    try:
        repo = discover(start_dir())
    except NotARepositoryError:
        return  # the command itself says so
    if are_signed_decisions_required(repo) and not is_signing_enabled(repo):
        raise ConfigError(
            f"{DECISIONS_CONFIG} is true, so `{command.name}` counts only from a signed ledger "
            f"commit, and {SIGN_CONFIG} is not true: the decision would be recorded unsigned",
            hint=f"`git config {SIGN_CONFIG} true` with your signing key set up "
                 "(`git commit -S` must work), then run it again")
