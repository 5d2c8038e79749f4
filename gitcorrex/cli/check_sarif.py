"""`git correx check --format sarif`: the gate's findings as a SARIF 2.1.0 log, the format
GitHub code scanning (and other review tools) shows on a pull request's diff.

One run, one tool (`git correx`, its rules with ids and help), one result per finding
(`check_findings.py`) with its file as a repository-relative URI (`%SRCROOT%`, the exact
bytes percent-encoded) and a line; a partial fingerprint per result, so an alert that
stays across pushes stays one alert. The log is validated against the OASIS schema by
tests/cli/test_check_formats.py (schema: tests/cli/fixtures/).
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING
from urllib.parse import quote

from gitcorrex import __version__
from gitcorrex.cli.check_findings import RULES, Finding, Rule, check_findings

if TYPE_CHECKING:
    from gitcorrex.manifest.range_gate import RangeGate

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def sarif_log(gate: RangeGate) -> str:
    """The SARIF document, as text ending with a newline."""
    findings = check_findings(gate)
    rule_ids = list(RULES)
    run = {
        "tool": {"driver": {"name": "git correx", "version": __version__,
                            "informationUri": "https://pypi.org/project/git-correx/",
                            "rules": [_rule(RULES[rule]) for rule in rule_ids]}},
        "originalUriBaseIds": {"%SRCROOT%": {"description": {
            "text": "The root of the repository's work tree."}}},
        "results": [_result(finding, rule_ids.index(finding.rule)) for finding in findings],
        "properties": {"range": gate.report.range, "base": gate.report.base,
                       "head": gate.report.head, "summary": gate.report.summary},
    }
    document = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(document, indent=2, ensure_ascii=True) + "\n"


def _rule(rule: Rule) -> dict[str, object]:
    return {"id": rule.id, "name": rule.name,
            "shortDescription": {"text": rule.short},
            "fullDescription": {"text": rule.help},
            "help": {"text": f"{rule.help} See docs/{rule.doc}.",
                     "markdown": f"{rule.help} See `docs/{rule.doc}`."},
            "defaultConfiguration": {"level": "error"}}


def _result(finding: Finding, index: int) -> dict[str, object]:
    uri = quote(finding.path_bytes, safe="/")
    digest = hashlib.sha256(f"{finding.rule}\0{uri}".encode()).hexdigest()
    return {"ruleId": finding.rule, "ruleIndex": index, "level": "error",
            "message": {"text": finding.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": finding.line}}}],
            "partialFingerprints": {"correxFinding/v1": digest}}
