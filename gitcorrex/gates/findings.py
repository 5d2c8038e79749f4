"""Findings parsed from the common `path:line[:col]: message` output of linters and
compilers (ruff, mypy, flake8, gcc, tsc --pretty false, detekt's plain format...).

Best effort and deterministic: a line that does not have that shape is simply not a
finding; the output itself stays the evidence.
"""

from __future__ import annotations

import re

from gitcorrex.model.canonical import bound_text
from gitcorrex.model.gates import StaticFinding

MAX_FINDINGS = 200
_LINE = re.compile(r"^(?P<path>[^\s:][^:\n]*?):(?P<line>\d+)(?::(?P<col>\d+))?:\s*(?P<msg>\S.*)$")


def parse_findings(output: str) -> tuple[list[StaticFinding], int]:
    """The findings (bounded) and how many more there were."""
    found = []
    for raw in output.splitlines():
        match = _LINE.match(raw.rstrip("\r"))
        if match is None:
            continue
        col = match.group("col")
        found.append(StaticFinding(path=bound_text(match.group("path")),
                                   line=int(match.group("line")),
                                   column=None if col is None else int(col),
                                   message=bound_text(match.group("msg"))))
    return found[:MAX_FINDINGS], max(0, len(found) - MAX_FINDINGS)
