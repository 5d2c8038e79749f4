"""`git correx doctor`: prove that git will run the manifest hooks, in every worktree."""

from __future__ import annotations

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable

LABELS = {"fail": "FAIL", "warn": "warn", "info": "info", "ok": "ok  "}


@click.command()
@json_option
def doctor(as_json: bool) -> Conclusion:
    """Check hooks path, marker, executable bit and interpreter of every worktree's hooks.

    Also warns about environment directories (a virtualenv, node_modules/, a tool's cache)
    the workspace's state key holds. One line per finding, with the fix. Exit 0 when git
    will run the check everywhere, 1 when some hook would not run (or would fail every
    commit).
    """
    from gitcorrex.git import discover
    from gitcorrex.hooks.doctor import diagnose

    report = diagnose(discover(start_dir()))
    if as_json:
        emit_json(report.as_dict())
    else:
        for finding in report.findings:
            fix = f"; fix: {finding.fix}" if finding.fix else ""
            click.echo(printable(f"{LABELS[finding.level]} {finding.worktree}: "
                                 f"{finding.subject}: {finding.message}{fix}"))
        click.echo("git will run the manifest check" if report.ok
                   else "git will NOT run the manifest check everywhere (see FAIL above)")
    return report.conclusion
