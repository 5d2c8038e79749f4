"""A weakening found: plain values, and the one line that names it to a person."""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.model.canonical import ledger_text
from gitcorrex.model.test_integrity import WeakeningRule

WHAT = {
    WeakeningRule.TEST_REMOVED: "test removed",
    WeakeningRule.TEST_RENAMED_AWAY: "test renamed away",
    WeakeningRule.ASSERTIONS_REMOVED: "assertions removed",
    WeakeningRule.ASSERTION_TRIVIAL: "assertion made trivially true",
    WeakeningRule.SKIP_ADDED: "skip marker added",
    WeakeningRule.CHECK_NEUTRALISED: "check neutralised",
    WeakeningRule.CHECK_COMMAND_CHANGED: "check command changed",
}


@dataclass(frozen=True)
class Weakening:
    """One weakening of `test` in `path` (its line: the baseline's when the test is gone)."""

    path: str
    test: str
    rule: WeakeningRule
    detail: str
    line: int | None = None

    def __post_init__(self) -> None:
        """Names as the ledger records them, so a finding read back, an acceptance's key
        and the next scan's finding are equal, whatever bytes a path held."""
        for name in ("path", "test", "detail"):
            object.__setattr__(self, name, ledger_text(getattr(self, name)))

    def key(self) -> tuple[str, str, str]:
        """What an acceptance names: the same finding on the same tree."""
        return (self.path, self.test, self.rule.value)

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "test": self.test, "rule": self.rule.value,
                "detail": self.detail, "line": self.line}

    def describe(self) -> str:
        """`tests/test_a.py:12 test_b: assertions removed (2 → 0: …)`."""
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where} {self.test}: {WHAT[self.rule]} ({self.detail})"
