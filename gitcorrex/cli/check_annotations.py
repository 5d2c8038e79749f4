"""`git correx check --format github`: the gate's findings as GitHub Actions workflow
commands (`::error file=…,line=…,title=…::…`), which GitHub shows as annotations on the
pull request's diff and the run's summary.

GitHub shows at most 10 annotations of each kind (error, warning, notice) per step, and
drops the rest silently: so when there are more than 10 findings, the first 9 are shown
and the 10th says how many more there are and where they are listed. Values are escaped
as the runner reads them (`%`, CR, LF in the message; also `:` and `,` in properties), so
a path or message cannot end the command early or start another. The text report follows,
for the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gitcorrex.cli.check_findings import RULES, Finding, check_findings

if TYPE_CHECKING:
    from gitcorrex.manifest.range_gate import RangeGate

PER_KIND = 10  # GitHub's limit of annotations of one kind per step


def workflow_annotations(gate: RangeGate) -> str:
    """The workflow commands, one per line (at most PER_KIND), ending with a newline."""
    findings = check_findings(gate)
    shown = findings if len(findings) <= PER_KIND else findings[:PER_KIND - 1]
    lines = [_command(finding) for finding in shown]
    if len(findings) > len(shown):
        rest = len(findings) - len(shown)
        lines.append("::error title=" + _property("git correx: more findings") + "::" +
                     _data(f"{rest} more finding(s) of git correx check {gate.report.range} "
                           "are not annotated (GitHub shows 10 per step): see the job "
                           "summary, the check's log, or its SARIF alerts"))
    return "".join(f"{line}\n" for line in lines)


def _command(finding: Finding) -> str:
    title = f"git correx: {RULES[finding.rule].short}"
    return (f"::error file={_property(finding.path)},line={finding.line},"
            f"title={_property(title)}::{_data(finding.message)}")


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")
