"""`git correx session status|list|clarify|adopt`: a session's folded state, and its operator.

The session is `--session ID` (or the status argument), else `CORREX_SESSION`, else
`git config correx.session`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable

if TYPE_CHECKING:
    from gitcorrex.git import Repository
    from gitcorrex.model.events import Provenance

session_option = click.option("--session", "session", metavar="ID", default=None,
                              help="Session (default: CORREX_SESSION, git config "
                                   "correx.session).")
revision_option = click.option("--expect-revision", type=click.IntRange(min=0), default=None,
                               help="Refuse (exit 3) unless the session is at revision N.")


@click.group()
def session() -> None:
    """Sessions: one locked plan, executed step by step, folded from the ledger."""


@session.command()
@click.argument("session_id", metavar="[ID]", required=False)
@json_option
def status(session_id: str | None, as_json: bool) -> Conclusion:
    """Plan, revision, steps, baseline (and whether it still holds here), pause cause.

    Exit 0, 1 when the session is invalid (a malformed event: nothing may advance).
    """
    from gitcorrex.cli.session_render import print_session_status

    return print_session_status(session_id=session_id, as_json=as_json)


@session.command(name="list")
@json_option
def list_cmd(as_json: bool) -> Conclusion:
    """Every session in the ledger: id, plan, status, revision, active step, and for a
    paused one its cause, reason and (semantic terminal) admission."""
    from gitcorrex.session.listing import list_sessions

    sessions = list_sessions(open_repo())
    if as_json:
        emit_json({"sessions": [s.model_dump(mode="json") for s in sessions]})
    elif not sessions:
        click.echo("no sessions recorded: `git correx plan lock PLAN` starts one")
    for s in [] if as_json else sessions:
        click.echo(printable(f"{s.session}  {s.plan_id}  {s.status}  revision {s.revision}"
                             f"{'  active ' + s.active_step if s.active_step else ''}"))
        if s.awaiting_review is not None:
            click.echo(printable(f"  awaiting_review: step {s.awaiting_review}"))
        if s.pause_cause is not None:
            click.echo(printable(f"  paused: {s.pause_cause}: {s.pause_reason}"))
        if s.admission is not None:
            click.echo(printable(f"  admitted on: {s.admission}"))
    return Conclusion.OK


@session.command()
@click.argument("path")
@click.option("--reason", required=True, help="Why the missing path does not block.")
@session_option
@json_option
def clarify(path: str, reason: str, session: str | None, as_json: bool) -> Conclusion:
    """Record that an open workspace precondition on PATH is clarified (not a blocker)."""
    from gitcorrex.session.clarify import clarify_precondition

    repo, now, provenance = transition_setup()
    event = clarify_precondition(repo, selected(repo, session), path, reason=reason, now=now,
                                 provenance=provenance)
    if as_json:
        emit_json({"event": event.model_dump(mode="json")})
    else:
        click.echo(printable(f"clarified {path} (event {event.id[:12]})"))
    return Conclusion.OK


@session.command()
@click.option("--reason", required=True, help="Why the changes are accepted.")
@session_option
@json_option
def adopt(reason: str, session: str | None, as_json: bool) -> Conclusion:
    """Adopt the changes made since the last settled state (an operator's decision).

    Between steps, `step start` admits only changes inside the starting step's writes;
    adopting records every other changed path and the reason, and the current state
    becomes the settled one. Exit 1 while a step is active or the profile changed.
    """
    from gitcorrex.session.adopt import adopt_changes

    repo, now, provenance = transition_setup()
    out = adopt_changes(repo, selected(repo, session), reason=reason, now=now,
                        provenance=provenance)
    if as_json:
        emit_json({"session": out.session, "state_key": out.state_key,
                   "settled": out.settled, "paths": out.paths,
                   "events": [e.model_dump(mode="json") for e in out.events]})
    elif out.events:
        click.echo(printable(f"adopted {len(out.paths)} changed path(s) on "
                             f"{out.state_key[:12]} (session {out.session}): "
                             f"{', '.join(out.paths)}"))
    else:
        click.echo(printable(f"nothing changed since the last settled state of session "
                             f"{out.session}; nothing recorded"))
    return Conclusion.OK


def open_repo() -> Repository:
    from gitcorrex.git import discover

    return discover(start_dir())


def selected(repo: Repository, given: str | None) -> str:
    """The flag, else CORREX_SESSION, else the workspace's configured session."""
    from gitcorrex.session.selection import chosen_session

    return chosen_session(repo, given or os.environ.get("CORREX_SESSION") or None)


def transition_setup() -> tuple[Repository, Any, Provenance]:

    from gitcorrex.clock import now_utc
    from gitcorrex.ledger.provenance import current_provenance

    repo = open_repo()
    return repo, now_utc(), current_provenance(repo)
