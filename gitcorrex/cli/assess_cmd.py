"""`git correx assess`: judge an agent's write or read before it happens.

With `--hook AGENT` (claude-code, codex, gemini, cursor) it speaks that agent's hook protocol
instead (gitcorrex/agents/): the call comes as JSON on stdin, the answer is the agent's own
allow/deny/block format, and every failure (a malformed payload, no repository, a bug) is the
agent's blocking answer too: fail closed. cli/fast.py serves the usual forms without click.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable

if TYPE_CHECKING:
    from gitcorrex.manifest.assess import AssessedPath, AssessOutcome, AssessRequest



@click.command()
@click.argument("action", required=False, type=click.Choice(["write", "read"]))
@click.argument("paths", nargs=-1)
@click.option("--stage", help="Stage whose `writes` apply (default: git config correx.stage).")
@click.option("--session", metavar="ID", help="Session the recorded verdict belongs to.")
@click.option("--record-all", is_flag=True, help="Record ALLOW verdicts too (BLOCKs always).")
@click.option("--hook", type=click.Choice(["claude-code", "codex", "gemini", "cursor"]),
              help="Read the agent's hook payload on stdin and answer in its protocol.")
@json_option
def assess(action: str | None, paths: tuple[str, ...], stage: str | None,
           session: str | None, record_all: bool, hook: str | None, as_json: bool
           ) -> Conclusion | int:
    """Judge `write` or `read` of PATH... (relative to the current directory, or absolute).

    Exit 0 when every path is allowed, 1 when any is blocked; each verdict is printed
    with its rule and the fix. BLOCKs are recorded as tool_call_assessed events.
    """
    if hook is not None:
        return _agent_hook(hook, bool(action or paths or as_json), stage, session, record_all)
    from gitcorrex.errors import UsageError
    from gitcorrex.manifest.assess import AssessRequest

    if action is None or not paths:
        raise UsageError("name the action and at least one path",
                         hint="git correx assess write src/app.py (or: read PATH...)")
    session = session or os.environ.get("CORREX_SESSION") or None
    outcome = _assess(AssessRequest(action, paths, start_dir(), stage, session, record_all))
    if as_json:
        emit_json(outcome)
    else:
        _print_outcome(outcome)
    _warn_preconditions(outcome)
    return outcome.conclusion


def _print_outcome(outcome: AssessOutcome) -> None:
    """Each path's verdict (with rule and fix when blocked); the recorded event on stderr."""
    click.echo("\n".join(_line(path) for path in outcome.paths))
    if outcome.event is not None:
        click.echo(f"git correx: recorded as event {outcome.event[:12]}", err=True)


def _warn_preconditions(outcome: AssessOutcome) -> None:
    """A build prerequisite still missing after repeated attempts: say who must create it."""
    for signal in outcome.preconditions:
        click.echo(f"git correx: {printable(signal.path)} is still missing after {signal.attempts} "
                   f"attempts and the build needs it ({signal.source.value} "
                   f"{signal.named_by}): recorded workspace_precondition_failed "
                   f"{signal.event[:12]}; create it in a bootstrap step, or ask the operator",
                   err=True)


def _line(path: AssessedPath) -> str:
    if not path.detail:
        return f"{path.verdict.value} {path.path}"
    return f"{path.verdict.value} {path.rule.value} {path.path}: {path.detail}; fix: {path.fix}"


def _assess(request: AssessRequest) -> AssessOutcome:

    from gitcorrex.clock import now_utc
    from gitcorrex.git import discover
    from gitcorrex.ledger.provenance import current_provenance
    from gitcorrex.session.assess_entry import assess_in_session

    repo = discover(start_dir())
    return assess_in_session(repo, request, clock=now_utc,
                        provenance=lambda: current_provenance(repo))


def _agent_hook(agent: str, extra: bool, stage: str | None, session: str | None,
                record_all: bool) -> int:
    """Exit 0 or 2 and nothing else: any other code would let the tool call proceed."""
    from gitcorrex.agents.request import HookOptions
    from gitcorrex.agents.run import BLOCK_EXIT
    from gitcorrex.cli.agent_hook import run_agent_hook

    if extra:
        sys.stderr.write("git correx could not assess this tool call, so it is blocked: "
                         "--hook takes no action, paths or --json (the call comes as JSON "
                         "on stdin)\n")
        return BLOCK_EXIT
    options = HookOptions(stage=stage, session=session or os.environ.get("CORREX_SESSION")
                          or None, record_all=record_all)
    return run_agent_hook(agent, options)
