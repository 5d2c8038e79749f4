"""`git correx plan ...`: validate step integrity, authorize, lock (and ground, elsewhere).

Other plan subcommands attach to the `plan` group with `plan.add_command(...)` where
they are registered (cli/commands.py).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable, printable_lines

if TYPE_CHECKING:
    from gitcorrex.git import Repository
    from gitcorrex.model.events import Provenance
    from gitcorrex.session.lock import LockOutcome

plan_argument = click.argument("plan_file", metavar="PLAN",
                               type=click.Path(path_type=Path, dir_okay=False, allow_dash=True))


@click.group()
def plan() -> None:
    """Plans: step integrity, authorization, grounding and the lock that starts a session.

    PLAN is a TOML or JSON file, or `-` to read it from standard input (kept in the plan
    home, `git correx plan path`). Keep plan files there, not in the work tree: a file in
    the work tree is part of the state key.
    """


@plan.command(name="path")
@json_option
def path_command(as_json: bool) -> Conclusion:
    """Print the plan home: a directory in the git directory, never part of a state key."""
    from gitcorrex.git import discover
    from gitcorrex.plan.home import plan_home

    home = plan_home(discover(start_dir()))
    if as_json:
        emit_json({"path": str(home)})
    else:
        click.echo(printable(str(home)))  # --json gives the exact path
    return Conclusion.OK


def plan_path(repo: Repository, plan_file: Path) -> Path:
    """The plan file to read: `-` is standard input, kept in the plan home."""
    if str(plan_file) != "-":
        return start_dir() / plan_file
    from gitcorrex.plan.home import keep_plan_bytes

    return keep_plan_bytes(repo, sys.stdin.buffer.read())


def echo_next(command: str, path: Path) -> None:
    """The command that comes next, naming the plan as the user can type it."""
    shown = path.relative_to(start_dir()) if path.is_relative_to(start_dir()) else path
    click.echo(printable(f"next: git correx plan {command} {shown}"))


@plan.command()
@plan_argument
@json_option
def validate(plan_file: Path, as_json: bool) -> Conclusion:
    """Decide step integrity and record `plan_validated`.

    Exit 0 accepted, 1 not accepted (the route and findings are printed), 2 malformed plan.
    """
    from gitcorrex.plan.validate import validate_plan

    repo, now, provenance = _setup()
    path = plan_path(repo, plan_file)
    outcome = validate_plan(repo, path, now=now, provenance=provenance)
    fields = outcome.fields
    if as_json:
        from gitcorrex.api.flow_results import PlanValidation  # one document: the API's

        emit_json(PlanValidation.of(outcome))
        return outcome.conclusion
    by = _authority_text(fields.authority.model_dump() if fields.authority else None)
    click.echo(printable(f"plan {fields.plan_id} ({fields.plan[:12]}): "
                         f"{fields.decision.value}{by}"))
    _echo_findings([f.model_dump() for f in fields.findings])
    for note in fields.diagnostics:
        click.echo(printable(f"  note: {note}"))
    if outcome.accepted:
        echo_next("ground", path)
    else:
        _echo_authority_next({f.code for f in fields.findings}, path)
    return outcome.conclusion


AUTHORITY_NEXT = {
    "authorization_missing": ("authorize", "not authorized yet, so nothing has failed: a "
                              "person reviews the plan and authorizes it, then validates again"),
    "audit_missing": ("audit", "authorized, not audited yet: a person other than the "
                      "authorizer audits it, then validates again"),
    "audit_not_independent": ("audit", "the audit must come from a person other than the "
                              "authorizer; then validate again"),
}


def _echo_authority_next(codes: set[str], path: Path) -> None:
    """A plan waiting on a person's decision (the `stop-escalate` of a first validate):
    say so, and name the command that decides it."""
    for code, (command, why) in AUTHORITY_NEXT.items():
        if code in codes:
            click.echo(printable(f"  {why}"))
            echo_next(command, path)
            return


@plan.command()
@plan_argument
@json_option
def authorize(plan_file: Path, as_json: bool) -> Conclusion:
    """Accept a plan's semantic claims as your git identity; record `plan_authorized`.

    Exit 0 authorized (now or before), 1 refused (structure or legacy plan), 2 malformed.
    """
    from gitcorrex.plan.authorize import authorize_plan

    repo, now, provenance = _setup()
    path = plan_path(repo, plan_file)
    out = authorize_plan(repo, path, now=now, provenance=provenance)
    event = out.event or out.existing
    if as_json:
        emit_json({"plan": out.plan, "plan_id": out.plan_id, "authorized": event is not None,
                   "event": event.model_dump(mode="json") if event else None,
                   "recorded": out.event is not None,
                   "decision": out.decision.value if out.decision else None,
                   "findings": [f.model_dump(mode="json") for f in out.findings]})
    elif event is None or out.by is None:
        click.echo(printable(f"plan {out.plan_id} ({out.plan[:12]}): not authorized: "
                             f"{out.decision.value if out.decision else 'refused'}"))
        _echo_findings([f.model_dump() for f in out.findings])
    else:
        when = "authorized" if out.event else "already authorized"
        click.echo(printable(f"plan {out.plan_id} ({out.plan[:12]}): {when} by "
                             f"{out.by.name} <{out.by.email}> at {event.at}"))
        echo_next("validate", path)
    return out.conclusion


@plan.command()
@plan_argument
@click.option("--session", help="Id of the new session (default: <plan id>-<8 hex>).")
@click.option("--replaces", metavar="OLD", default=None,
              help="Re-plan: supersede the running session's plan OLD (file or identity).")
@click.option("--expect-revision", type=click.IntRange(min=0), default=None,
              help="With --replaces: refuse (exit 3) unless the session is at revision N.")
@click.option("--baseline-unverified", is_flag=True,
              help="Lock although nothing verified this state (needs --reason; recorded).")
@click.option("--reason", default=None, help="Why the baseline is unverified (recorded).")
@json_option
def lock(plan_file: Path, session: str | None, replaces: str | None,
         expect_revision: int | None, baseline_unverified: bool, reason: str | None,
         as_json: bool) -> Conclusion:
    """Lock a validated plan grounded on, and verified on, the current state key; start its
    session.

    Prints the session id. Exit 0 locked, 1 something is missing (named: e.g.
    baseline_unverified, baseline_not_pass) or the re-plan is refused, 2 malformed plan or
    --reason without --baseline-unverified, 3 the session moved on (re-plan).
    """
    from gitcorrex.session.lock import lock_plan

    repo, now, provenance = _setup()
    unverified = _unverified_reason(baseline_unverified, reason)
    if replaces is not None and Path(replaces).is_file():
        replaces = str(start_dir() / replaces)
    out = lock_plan(repo, plan_path(repo, plan_file), session=session, now=now,
                    provenance=provenance, replaces=replaces, expect_revision=expect_revision,
                    baseline_unverified=unverified)
    if as_json:
        emit_json({"plan": out.plan, "plan_id": out.plan_id, "session": out.session,
                   "state_key": out.state_key, "locked": bool(out.events),
                   "missing": [m.model_dump(mode="json") for m in out.missing],
                   "events": [e.model_dump(mode="json") for e in out.events]})
    else:
        _print_lock(out)
    return out.conclusion


def _unverified_reason(baseline_unverified: bool, reason: str | None) -> str | None:
    """`--baseline-unverified [--reason R]` as the lock takes it; --reason alone is misuse."""
    if reason is not None and not baseline_unverified:
        from gitcorrex.errors import UsageError

        raise UsageError("--reason explains --baseline-unverified; pass both or neither",
                         hint="add --baseline-unverified, or drop --reason")
    return (reason or "") if baseline_unverified else None


def _print_lock(out: LockOutcome) -> None:
    """The session id on stdout when locked (what scripts capture); else what is missing."""
    if out.events:
        click.echo(out.session)
        click.echo(f"locked plan {out.plan_id} ({out.plan[:12]}) on state {out.state_key[:12]}",
                   err=True)
        return
    click.echo(f"plan {out.plan_id} ({out.plan[:12]}): not locked")
    _echo_findings([{"where": m.code, **m.model_dump()} for m in out.missing])


def _setup() -> tuple[Repository, Any, Provenance]:

    from gitcorrex.clock import now_utc
    from gitcorrex.git import discover
    from gitcorrex.ledger.provenance import current_provenance

    repo = discover(start_dir())
    return repo, now_utc(), current_provenance(repo)


def _authority_text(authority: dict[str, Any] | None) -> str:
    if authority is None:
        return ""
    who = f" by {authority['name']} <{authority['email']}>" if authority.get("event") else ""
    return f" ({authority['kind'].value.replace('_', ' ')}{who})"


def _echo_findings(findings: list[dict[str, Any]]) -> None:
    for finding in findings:
        click.echo(printable_lines(f"  {finding['where']}: {finding['message']}\n"
                                   f"    hint: {finding['hint']}"))
