"""`git correx assess`: judge an agent's write or read before it happens.

With `--hook AGENT` (claude-code, codex, gemini, cursor, copilot-cli) it speaks that agent's
hook protocol instead (gitcorrex/agents/): the call comes as JSON on stdin, the answer is the
agent's own allow/deny/block format, and every failure (a malformed payload, no repository, a
bug) is the agent's blocking answer too: fail closed. cli/startup.py answers those forms
without click.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from gitcorrex.agents.hosts import AGENTS
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
@click.option("--hook", type=click.Choice(list(AGENTS)),
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
        from gitcorrex.cli.agent_hook import answer_assess_hook

        return answer_assess_hook(hook=hook, action=action, paths=paths, stage=stage,
                                  session=session, record_all=record_all, as_json=as_json)
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
