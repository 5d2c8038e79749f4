"""`git correx doctor`: prove that git will run the manifest hooks, in every worktree; with
`--agent NAME`, prove through the installed command that the agent's hooks block."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gitcorrex.agents.hosts import AGENTS
from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable

if TYPE_CHECKING:
    from gitcorrex.agents.probe import AgentReport

LABELS = {"fail": "FAIL", "warn": "warn", "info": "info", "ok": "ok  ", "broken": "FAIL"}
# what the host's process would not inherit from a doctor run inside a git hook or alias
_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX")


@click.command()
@click.option("--agent", type=click.Choice(list(AGENTS)),
              help="Instead: run the agent's installed hook command on synthetic calls and "
                   "report whether it blocks them.")
@json_option
def doctor(agent: str | None, as_json: bool) -> Conclusion:
    """Check hooks path, marker, executable bit and interpreter of every worktree's hooks.

    Also warns about environment directories (a virtualenv, node_modules/, a tool's cache)
    the workspace's state key holds. One line per finding, with the fix. Exit 0 when git
    will run the check everywhere, 1 when some hook would not run (or would fail every
    commit). With --agent: 0 when the installed hooks block what they should, 1 when one
    does not, 3 when the install or the environment is broken (no hooks, a file that does
    not parse, an ordinary call blocked).
    """
    from gitcorrex.git import discover

    if agent is not None:
        return _doctor_agent(agent, as_json)
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


def _doctor_agent(agent: str, as_json: bool) -> Conclusion:
    import os

    from gitcorrex.agents.probe import probe_agent
    from gitcorrex.git import discover

    env = {key: value for key, value in os.environ.items() if key not in _GIT_ENV}
    report = probe_agent(discover(start_dir()).root, agent, env=env)
    if as_json:
        emit_json(report.as_dict())
    else:
        _print_agent(report)
    return report.conclusion


def _print_agent(report: AgentReport) -> None:
    for finding in report.findings:
        fix = f"; fix: {finding.fix}" if finding.fix else ""
        click.echo(printable(f"{LABELS[finding.level]} {finding.subject}: "
                             f"{finding.message}{fix}"))
    verdict = {Conclusion.OK: f"{report.agent}: the installed hooks block what they should",
               Conclusion.CHECK_FAILED: f"{report.agent}: the installed hooks do NOT block "
                                        "everything they should (see FAIL above)",
               Conclusion.UNAVAILABLE: f"{report.agent}: the hooks are not installed or "
                                       "cannot run here (see FAIL above)"}
    click.echo(verdict[report.conclusion])
