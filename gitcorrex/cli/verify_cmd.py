"""`git correx verify`: run the profile's expectation on the current state key, record it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from pathlib import Path

    from gitcorrex.cli.head_start import HeadStart
    from gitcorrex.verify.outcome import VerifyOutcome

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.printable import printable_lines


@click.command()
@click.option("--stage", help="Stage whose build_expectation and writes apply.")
@click.option("--expect", "expect", help="Expectation to run (overrides the stage's).")
@click.option("--session", help="Session the observation belongs to (assigns a seq).")
@click.option("--reuse", is_flag=True,
              help="Cite an earlier pass of this exact tree and commands instead of running.")
@click.option("--isolated", is_flag=True,
              help="Run in a throwaway worktree holding exactly the state tree.")
@click.option("--artifact", "artifacts", multiple=True, metavar="NAME=FILE",
              help="An artifact the active step's stage gates need (repeatable).")
@click.option("--quiet", "-q", is_flag=True, help="Do not stream command output.")
@json_option
@click.pass_obj
def verify(head_start: HeadStart | None, stage: str | None, expect: str | None,
           session: str | None, reuse: bool, isolated: bool, artifacts: tuple[str, ...],
           quiet: bool, as_json: bool) -> int:
    """Observe the configured commands on this exact workspace state and record the result.

    Inside a session with an active step it settles the step: write evidence, the stage's
    gates, the step's checks and the build expectation (docs/settlement.md).
    Exit 0 pass (or nothing to verify), 1 fail, 3 unavailable.
    """
    streaming = not quiet and not as_json
    outcome = _verify(head_start, stage=stage, expect=expect, session=session, reuse=reuse,
                      isolated=isolated, artifacts=artifacts, streaming=streaming)
    from gitcorrex.cli.progress import write_verbatim

    if outcome.failing_output is not None and not (streaming and outcome.streamed):
        write_verbatim(outcome.failing_output)
    if as_json:
        emit_json(outcome_document(outcome))
    else:
        click.echo(printable_lines(outcome.summary))
    return outcome.exit_code


def _verify(head_start: HeadStart | None, *, stage: str | None, expect: str | None,
            session: str | None, reuse: bool, isolated: bool, artifacts: tuple[str, ...],
            streaming: bool) -> VerifyOutcome:
    """The one use case, on the scan `main` began before click loaded (or one begun now):
    git keys the workspace while the heavy modules below load (~150 ms each, overlapped)."""
    import os
    from datetime import datetime, timezone

    from gitcorrex.git.repository import discover_with_git
    from gitcorrex.git.state import StateProbe

    started = head_start.take() if head_start is not None else None
    if started is None:
        repo = discover_with_git(start_dir())
        started = (repo, StateProbe(repo).begin())
    repo = started[0]
    with started[1] as probe:
        from gitcorrex.cli.progress import TerminalProgress
        from gitcorrex.ledger.provenance import current_provenance
        from gitcorrex.session.verify_entry import verify_workspace
        from gitcorrex.verify.outcome import SilentProgress
        from gitcorrex.verify.usecase import VerifyRequest

        request = VerifyRequest(stage=stage, expect=expect, session=session, reuse=reuse,
                                isolated=isolated)
        return verify_workspace(
            repo, request, env=dict(os.environ), clock=lambda: datetime.now(timezone.utc),
            provenance=current_provenance(repo), probe=probe,
            progress=TerminalProgress() if streaming else SilentProgress(),
            artifacts=_artifacts(artifacts))


def _artifacts(options: tuple[str, ...]) -> dict[str, Path] | None:
    """`--artifact NAME=FILE` pairs; the gates' parser is loaded only when one is given."""
    if not options:
        return None
    from gitcorrex.gates.artifacts import parse_artifact_options

    return parse_artifact_options(options, start_dir())


def outcome_document(outcome: VerifyOutcome) -> dict[str, object]:
    """The `--json` result: verdict, summary, and the recorded event(s) in full — the
    Python API's VerifyResult, so `Workspace.verify()` and this print the same document."""
    from gitcorrex.api.results import VerifyResult

    document: dict[str, object] = VerifyResult.of(outcome).model_dump(mode="json")
    return document
