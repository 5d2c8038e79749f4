"""`git correx manifest lint`: check the stages' write manifests before anything enforces them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable, printable_lines

if TYPE_CHECKING:
    from gitcorrex.manifest.lint import Finding


@click.group()
def manifest() -> None:
    """Write manifests: the paths each stage may change (`stages.<name>.writes`)."""


@manifest.command()
@click.option("--stage", help="Lint only this stage (default: every stage).")
@json_option
def lint(stage: str | None, as_json: bool) -> Conclusion:
    """Lint the `writes` patterns of the work tree's .correx.toml.

    Errors: `..`, `.` or empty components, `.git`, backslashes, absolute filesystem paths,
    non-patterns. Warnings: unanchored patterns (they match at any depth) and patterns
    that match nothing in HEAD's tree. Exit 0 clean or warnings only, 1 on errors.
    """
    from gitcorrex.git import discover
    from gitcorrex.manifest.lint import lint_manifests

    report = lint_manifests(discover(start_dir()), stage=stage)
    if as_json:
        emit_json(report)
    else:
        for finding in report.findings:
            click.echo(printable_lines(_line(finding)))
        click.echo(printable(report.summary))
    return report.conclusion


def _line(finding: Finding) -> str:
    return f"{finding.severity}: {finding.where}: {finding.message}\n  hint: {finding.hint}"
