"""`git correx step start`, `git correx step review`, `git correx pause` and `git correx
resume`: session transitions.

Each is one compare-and-swap on the session revision: exit 0 admitted, 1 refused (the
reason and the fix are printed), 3 the session moved on (the current revision is named).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.cli.session_cmd import revision_option, selected, session_option, transition_setup
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable_lines

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gitcorrex.git import Repository
    from gitcorrex.model.events import RecordedEvent


@click.group()
def step() -> None:
    """Steps of the workspace's session."""


@step.command()
@click.argument("step_id", metavar="STEP")
@session_option
@revision_option
@json_option
def start(step_id: str, session: str | None, expect_revision: int | None,
          as_json: bool) -> Conclusion:
    """Make STEP the active step: its dependencies verified, the workspace on the baseline."""
    from gitcorrex.session.start import start_step

    repo, now, provenance = transition_setup()
    out = start_step(repo, selected(repo, session), step_id, expect_revision=expect_revision,
                     now=now, provenance=provenance)
    if as_json:
        from gitcorrex.api.flow_results import StepStarted  # one document: the API's

        emit_json(StepStarted.of(out))
        return Conclusion.OK
    return _admitted(as_json, {"session": out.session, "step": out.step,
                               "state_key": out.state_key, "revision": out.events[-1].seq},
                     out.events, f"step {out.step} started (session {out.session}, "
                                 f"revision {out.events[-1].seq})")


@step.command()
@click.argument("step_id", metavar="STEP")
@click.option("--approve", "decision", flag_value="approve",
              help="Approve the settlement: the step is verified.")
@click.option("--reject", "decision", flag_value="reject",
              help="Reject it: the step fails with your reason as feedback.")
@click.option("--reason", required=True, help="Why (≤ 1,024 characters).")
@session_option
@revision_option
@json_option
def review(step_id: str, decision: str | None, reason: str, session: str | None,
           expect_revision: int | None, as_json: bool) -> Conclusion:
    """Review STEP of a guarded plan, which passed its settlement and awaits review, as
    your git identity: --approve verifies it, --reject sends it back (a failed attempt).

    Refused (exit 1) from an identity that started or settled the step, or for a step
    not awaiting review; exit 2 without --approve or --reject.
    """
    from gitcorrex.errors import UsageError
    from gitcorrex.model.session_events import ReviewDecision
    from gitcorrex.session.review import review_step
    from gitcorrex.session.settlement import describe

    if decision is None:
        raise UsageError("give --approve or --reject", hint="and --reason TEXT: why")
    repo, now, provenance = transition_setup()
    out = review_step(repo, selected(repo, session), step_id,
                      decision=ReviewDecision(decision), reason=reason,
                      expect_revision=expect_revision, now=now, provenance=provenance)
    said = "approved" if decision == "approve" else "rejected"
    lines = [f"step {out.step} {said} by {out.reviewer} (session {out.session}, revision "
             f"{out.events[-1].seq})", *(describe(e) for e in out.events[2:])]
    return _admitted(as_json, {"session": out.session, "step": out.step,
                               "decision": out.decision.value, "reviewer": str(out.reviewer)},
                     out.events, printable_lines("\n".join(lines)))


@click.command()
@session_option
@click.option("--kind", type=click.Choice(["administrative", "orchestration_settlement"]),
              help="An operator's pause.")
@click.option("--reason", help="Why (required with --kind).")
@click.option("--claim", "claim_file", type=click.Path(path_type=Path, dir_okay=False),
              help="A blocker claim (JSON) for a semantic terminal pause.")
@revision_option
@json_option
def pause(session: str | None, kind: str | None, reason: str | None, claim_file: Path | None,
          expect_revision: int | None, as_json: bool) -> Conclusion:
    """Pause the session: an operator's pause, or a semantic terminal one on a confirmed claim.

    A claim is considered only for a blocker edge the plan step declares. Claim outcomes:
    confirmed (exit 0, paused with its receipt), not_declared, contradicted, unresolved,
    requires_user_authority (exit 1, nothing written); exit 3 when the context went stale.
    """
    from gitcorrex.errors import UsageError

    if (kind is None) == (claim_file is None) or (kind is not None and not reason):
        raise UsageError("give either --kind KIND --reason TEXT, or --claim CLAIM.json")
    repo, now, provenance = transition_setup()
    chosen = selected(repo, session)
    if claim_file is not None:
        return _claim(repo, chosen, start_dir() / claim_file, expect_revision, as_json)
    from gitcorrex.model.session_events import PauseCause
    from gitcorrex.session.pause import pause_session

    events = pause_session(repo, chosen, cause=PauseCause(kind), reason=str(reason),
                           expect_revision=expect_revision, now=now, provenance=provenance)
    return _admitted(as_json, {"session": chosen, "paused": True}, events,
                     f"session {chosen} paused ({kind})")


def _claim(repo: Repository, session: str, path: Path, expect_revision: int | None,
           as_json: bool) -> Conclusion:

    from gitcorrex.clock import now_utc
    from gitcorrex.ledger.provenance import current_provenance
    from gitcorrex.session.claims import admit_claim, load_claim

    decision = admit_claim(repo, session, load_claim(path), expect_revision=expect_revision,
                           clock=now_utc,
                           provenance=current_provenance(repo))
    if as_json:
        emit_json({"session": session, "outcome": decision.outcome.value,
                   "detail": decision.detail,
                   "observation": decision.observation.model_dump(mode="json")
                   if decision.observation else None,
                   "events": [e.model_dump(mode="json") for e in decision.events]})
    else:
        click.echo(printable_lines(f"{decision.outcome.value}: {decision.detail}"))
    return decision.conclusion


@click.command()
@session_option
@click.option("--reason", required=True, help="Why the session may go on.")
@click.option("--budget", type=click.IntRange(min=1), default=None,
              help="A raised max_attempts for the escalated step (controller_limit pauses).")
@revision_option
@json_option
def resume(session: str | None, reason: str, budget: int | None, expect_revision: int | None,
           as_json: bool) -> Conclusion:
    """Resume a paused session, by its pause's rule (see docs/sessions.md)."""
    from gitcorrex.session.pause import resume_session

    repo, now, provenance = transition_setup()
    chosen = selected(repo, session)
    events = resume_session(repo, chosen, reason=reason, budget=budget,
                            expect_revision=expect_revision, now=now, provenance=provenance)
    return _admitted(as_json, {"session": chosen, "resumed": True}, events,
                     f"session {chosen} resumed")


def _admitted(as_json: bool, document: dict[str, object], events: Sequence[RecordedEvent],
              text: str) -> Conclusion:
    """An admitted transition: `document` plus the events it recorded, or one line."""
    if as_json:
        emit_json({**document, "events": [e.model_dump(mode="json") for e in events]})
    else:
        click.echo(text)
    return Conclusion.OK
