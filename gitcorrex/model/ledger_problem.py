"""A ledger line that could not be taken at face value: plain data (no pydantic), so read
paths can report stored problems without loading the event models."""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.model.printable import printable

TYPE_CHECKING = False  # no `typing` at run time: every read path imports this (3 ms)
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class Problem:
    """A ledger line that could not be taken at face value; `line` counts from 1."""

    subject: str
    line: int
    reason: str
    excerpt: str

    def describe(self) -> str:
        """`<subject>:<line>: <reason>: <excerpt>`, control characters escaped for a terminal."""
        return f"{self.subject}:{self.line}: {self.reason}: {printable(self.excerpt)}"

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready fields, for `--json` output."""
        return {
            "subject": self.subject,
            "line": self.line,
            "reason": self.reason,
            "excerpt": self.excerpt,
        }
