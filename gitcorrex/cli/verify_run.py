"""`git correx verify` after its options are parsed: the one use case, and its output.

Click-free, so that verify runs without importing click whatever options it is given
(`cli/startup.py` parses them against the table generated from `verify_cmd.py`): every
orchestrator step pays a verify, and click is ~35 ms of its start-up. The click command
parses what that parser leaves to click (help, a typo) and calls the same function with the
same keyword arguments.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable_lines

TYPE_CHECKING = False  # no `typing` at run time on the start-up path
if TYPE_CHECKING:
    from gitcorrex.cli.head_start import HeadStart
    from gitcorrex.verify.outcome import VerifyOutcome


def run_verify(head_start: HeadStart | None, *, stage: str | None, expect: str | None,
               session: str | None, reuse: bool, isolated: bool, artifacts: tuple[str, ...],
               quiet: bool, as_json: bool, profile_from: str | None) -> Conclusion:
    """Verify the workspace, print the summary (or the `--json` document); the exit code."""
    streaming = not quiet and not as_json
    outcome = _verify(head_start, stage=stage, expect=expect, session=session, reuse=reuse,
                      isolated=isolated, profile_from=profile_from, artifacts=artifacts,
                      streaming=streaming)
    from gitcorrex.cli.progress import write_verbatim

    if outcome.failing_output is not None and not (streaming and outcome.streamed):
        write_verbatim(outcome.failing_output)
    for warning in outcome.warnings:
        sys.stderr.write(printable_lines(warning) + "\n")
    if as_json:
        _emit_json(outcome_document(outcome))
    else:
        sys.stdout.write(printable_lines(outcome.summary) + "\n")
    return outcome.conclusion


def _emit_json(document: dict[str, object]) -> None:
    import json

    sys.stdout.write(json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True) + "\n")


def _verify(head_start: HeadStart | None, *, stage: str | None, expect: str | None,
            session: str | None, reuse: bool, isolated: bool, profile_from: str | None,
            artifacts: tuple[str, ...], streaming: bool) -> VerifyOutcome:
    """The one use case, on the scan `main` began before anything was imported (or one
    begun now): git keys the workspace while the modules below load."""
    import os

    from gitcorrex.cli.head_start import begin_provenance
    from gitcorrex.clock import now_utc
    from gitcorrex.git import StateProbe, discover

    started = head_start.take() if head_start is not None else None
    provenance = head_start.take_provenance() if head_start is not None else None
    if started is None:
        repo = discover(Path.cwd())
        started = (repo, StateProbe(repo).begin())
    repo = started[0]
    with started[1] as probe:
        provenance = provenance or begin_provenance(repo)  # asked while the modules load
        from gitcorrex.cli.progress import TerminalProgress
        from gitcorrex.session.verify_entry import verify_workspace
        from gitcorrex.verify.outcome import SilentProgress
        from gitcorrex.verify.request import VerifyContext, VerifyRequest

        progress = TerminalProgress() if streaming else SilentProgress()
        request = VerifyRequest(stage=stage, expect=expect, session=session, reuse=reuse,
                                isolated=isolated, profile_from=profile_from)
        context = VerifyContext(os.environ, now_utc, provenance(), progress)
        return verify_workspace(repo, request, context, probe=probe,
                                artifacts=_artifacts(artifacts))


def _artifacts(options: tuple[str, ...]) -> dict[str, Path] | None:
    """`--artifact NAME=FILE` pairs; the gates' parser is loaded only when one is given."""
    if not options:
        return None
    from gitcorrex.gates.artifacts import parse_artifact_options

    return parse_artifact_options(options, Path.cwd())


def outcome_document(outcome: VerifyOutcome) -> dict[str, object]:
    """The `--json` result: verdict, summary, and the recorded event(s) in full — the
    Python API's VerifyResult, so `Workspace.verify()` and this print the same document."""
    from gitcorrex.api.results import VerifyResult

    document: dict[str, object] = VerifyResult.of(outcome).model_dump(mode="json")
    return document
