"""`git correx gate`: the stage's post-stage gates on the current workspace state."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable_lines

if TYPE_CHECKING:
    from gitcorrex.gates.outcome import GateOutcome
    from gitcorrex.git import Repository, StateProbe


@click.command()
@click.option("--stage", help="Stage whose gates run (default: git config correx.stage).")
@click.option("--session", metavar="ID", help="Session the gate facts belong to.")
@click.option("--artifact", "artifacts", metavar="KIND=FILE", multiple=True,
              help="An artifact the stage produced (JSON), e.g. brief=out/brief.json.")
@json_option
def gate(stage: str | None, session: str | None, artifacts: tuple[str, ...],
         as_json: bool) -> Conclusion:
    """Run the stage's gates in order: produces, grounding, echo, static analysis.

    Stops at the first failing gate and prints its feedback verbatim. Exit 0 every gate
    passed (or none is configured), 1 a gate failed, 2 usage or configuration error.
    """
    from gitcorrex.git import discover

    repo = discover(start_dir())
    if repo.work_tree is None:
        outcome = _run(repo, stage, session, artifacts, None)
    else:  # git keys the workspace while the use-case's modules load
        from gitcorrex.git import StateProbe

        with StateProbe(repo).begin() as probe:
            outcome = _run(repo, stage, session, artifacts, probe)
    from gitcorrex.cli.progress import write_verbatim

    if as_json:
        emit_json(outcome_document(outcome))
    else:
        click.echo(printable_lines(outcome_text(outcome)))
    if outcome.feedback is not None:
        sys.stdout.flush()
        write_verbatim(outcome.feedback)
    return outcome.conclusion


def _run(repo: Repository, stage: str | None, session: str | None,
         artifacts: tuple[str, ...], probe: StateProbe | None) -> GateOutcome:
    import os

    from gitcorrex.clock import now_utc
    from gitcorrex.gates.artifacts import parse_artifact_options
    from gitcorrex.gates.run_gates import GateRequest, run_gates
    from gitcorrex.ledger.provenance import current_provenance

    request = GateRequest(stage, session, parse_artifact_options(artifacts, start_dir()))
    return run_gates(repo, request, env=dict(os.environ),
                     clock=now_utc,
                     provenance=current_provenance(repo), probe=probe)


def outcome_text(outcome: GateOutcome) -> str:
    """One line per gate that ran, then the verdict."""
    lines = [f"{'✓' if r.passed else '✗'} {r.gate}: {r.summary}" for r in outcome.results]
    return "\n".join([*lines, outcome.summary])


def outcome_document(outcome: GateOutcome) -> dict[str, Any]:
    """The `--json` result: each gate with its event in full, and the feedback text (the
    Python API's GateResult, so `Workspace.gate()` and the MCP tool print the same)."""
    from gitcorrex.api.flow_results import GateResult

    document: dict[str, Any] = GateResult.of(outcome).model_dump(mode="json")
    return document
