"""`git correx check BASE..HEAD`: the CI gate that `--no-verify` cannot bypass."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from gitcorrex.cli.options import json_option, start_dir
from gitcorrex.errors import UsageError
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable_lines

if TYPE_CHECKING:
    from collections.abc import Callable

    from gitcorrex.git import Repository
    from gitcorrex.manifest.range_gate import HeadCheck, RangeGate
    from gitcorrex.manifest.range_report import RangeReport
    from gitcorrex.review.require_pass import RequiredPass


@click.command()
@click.argument("range_spec", metavar="BASE..HEAD")
@click.option(
    "--stage", help="Stage whose `writes` (read from BASE) apply; default: git config correx.stage."
)
@click.option(
    "--record", is_flag=True, help="Record a BLOCK assessment on each violating commit's tree."
)
@click.option(
    "--require-pass", is_flag=True,
    help="Also require a recorded pass on HEAD's tree (exit 1 without one).",
)
@click.option(
    "--require-signed", is_flag=True,
    help="Count only passes whose ledger commit git verifies as signed by a trusted key "
    "(implies --require-pass; also `git config correx.requireSigned true`).",
)
@click.option(
    "--profile-from", "profile_from", metavar="REV",
    help="Count a pass run under REV's profile instead of BASE's (e.g. HEAD: the branch's "
    "own; said in the output). Needs --require-pass.",
)
@click.option(
    "--require-test-integrity", "require_integrity", is_flag=True,
    help="Also refuse (exit 1) a head whose tests are weaker than the merge base's, unless a "
    "person accepted it on the head's tree (also `git config correx.requireTestIntegrity "
    "true`).",
)
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json", "sarif", "github"]),
    default="text", show_default=True,
    help="text for people; json (= --json); sarif: a SARIF 2.1.0 log for code scanning; "
    "github: workflow annotations (at most 10, the rest summarised), then the text.",
)
@json_option
def check(range_spec: str, stage: str | None, record: bool, require_pass: bool,
          require_signed: bool, profile_from: str | None, require_integrity: bool,
          output_format: str, as_json: bool) -> Conclusion:
    """Check every commit of BASE..HEAD and the net diff against BASE's manifest.

    A merge is judged against its first parent, except paths it takes unchanged from
    another parent (judged on the commits that made them, or already in BASE). Paths that
    are not canonical (`..`, `.git`, empty components) are always violations. Read-only
    unless --record.
    Exit 0 clean, 1 violations (or, with --require-pass, no recorded pass on the head's
    tree run under BASE's profile; with --require-signed, none added by a ledger commit
    signed by a trusted key; with --require-test-integrity, a test weakening no one
    accepted), 2 bad range or profile, 3 history missing (shallow clone).
    """
    from gitcorrex.agents.own_hook_files import without_own_hook_files
    from gitcorrex.clock import now_utc
    from gitcorrex.git import discover
    from gitcorrex.ledger.provenance import current_provenance
    from gitcorrex.manifest.range_gate import check_range_gate

    if as_json and output_format not in ("text", "json"):
        raise UsageError(f"--json and --format {output_format} ask for two outputs",
                         hint="give one of them")
    repo = discover(start_dir())
    gate = check_range_gate(repo, spec=range_spec, stage=stage, record=record, clock=now_utc,
                            provenance=lambda: current_provenance(repo),
                            required=_required_pass(repo, require_pass, require_signed,
                                                    profile_from),
                            integrity=_required_integrity(repo, require_integrity,
                                                          require_signed, record),
                            exempt=without_own_hook_files)
    if gate.recorded is not None:
        click.echo(f"git correx: recorded {gate.recorded} assessment(s)", err=True)
    click.echo(_output(gate, "json" if as_json else output_format), nl=False)
    return gate.conclusion


def _output(gate: RangeGate, output_format: str) -> str:
    """The gate's outcome in the format asked for, ending with a newline."""
    if output_format == "json":
        return json.dumps(gate.as_dict(), indent=2, sort_keys=True, ensure_ascii=True) + "\n"
    if output_format == "sarif":
        from gitcorrex.cli.check_sarif import sarif_log

        return sarif_log(gate)
    text = render_text(gate.report) + "".join(
        printable_lines(head_check.describe()) + "\n"
        for head_check in (gate.required, gate.integrity) if head_check is not None)
    if output_format == "github":
        from gitcorrex.cli.check_annotations import workflow_annotations

        return workflow_annotations(gate) + text
    return text


def _required_pass(repo: Repository, require_pass: bool, require_signed: bool,
                   profile_from: str | None) -> Callable[[RangeReport], RequiredPass] | None:
    """The head's counted status when a pass is required; signed as flag or config say."""
    if not (require_pass or require_signed):
        if profile_from is not None:
            raise UsageError("--profile-from chooses the profile a required pass ran",
                             hint="add --require-pass, or drop --profile-from")
        return None
    from gitcorrex.git import is_signature_required
    from gitcorrex.review.require_pass import required_pass

    signed = require_signed or is_signature_required(repo)
    return lambda report: required_pass(
        repo, base=report.base, base_rev=report.range.partition("..")[0], commit=report.head,
        signed=signed, profile_from=profile_from)


def _required_integrity(repo: Repository, required: bool, signed: bool, record: bool
                        ) -> Callable[[RangeReport], HeadCheck] | None:
    """The head's open test weakenings against the range's merge base, when asked (flag or
    config); only signed acceptances count when signatures are required."""
    from gitcorrex.review.required_integrity import (
        is_test_integrity_required,
        required_integrity,
    )

    if not (required or is_test_integrity_required(repo)):
        return None
    from gitcorrex.clock import now_utc
    from gitcorrex.git import is_signature_required
    from gitcorrex.ledger.provenance import current_provenance

    signed = signed or is_signature_required(repo)
    return lambda report: required_integrity(
        repo, base=(report.merge_bases or (report.base,))[0], head=report.head, signed=signed,
        record=current_provenance(repo) if record else None, now=now_utc())


def render_text(report: RangeReport) -> str:
    """Each violating commit (short sha, subject) with its violations, the net diff, a total."""
    from gitcorrex.model.repo_paths import printable_path

    lines = []
    for commit in report.violating:
        lines.append(f"{commit.sha[:12]} {printable_path(commit.subject)}")
        lines.extend(f"  {violation.describe()}" for violation in commit.violations)
    if report.net:
        bases = ", ".join(base[:12] for base in report.merge_bases)
        lines.append(f"net diff {bases}..{report.head[:12]}")
        lines.extend(f"  {violation.describe()}" for violation in report.net)
    lines.append(report.summary)
    return "".join(f"{line}\n" for line in lines)
