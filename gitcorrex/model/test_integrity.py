"""Kind-specific fields of test integrity: a weakened test found, and a person accepting it.

A suite with its assertions removed still passes, so a pass alone does not say the change
kept its tests. Each weakening the scan finds (integrity/) between a baseline tree and a
state tree is recorded on the state tree as one `test_integrity_weakened`; a person who
reviews them records `test_integrity_accepted` on the same tree (`git correx
accept-tests`). A weakening is identified by (path, test, rule): an acceptance covers that
finding on that exact tree, whatever baseline a later reader compares with.
"""

from __future__ import annotations

from enum import Enum

from pydantic import Field

from gitcorrex.model.events import Oid
from gitcorrex.model.record import EventPayload, Record


class WeakeningRule(str, Enum):
    """What weakened. `check_*` rules are about a check's command, not a test."""

    TEST_REMOVED = "test_removed"  # gone, and no same-named or same-bodied test elsewhere
    TEST_RENAMED_AWAY = "test_renamed_away"  # still there, under a name no runner collects
    ASSERTIONS_REMOVED = "assertions_removed"  # fewer assertions than the baseline's
    ASSERTION_TRIVIAL = "assertion_trivial"  # an assertion that is always true was added
    SKIP_ADDED = "skip_added"  # skip, xfail, only, ignore, todo marker added
    CHECK_NEUTRALISED = "check_neutralised"  # `|| true`, continue-on-error, allow_failure
    CHECK_COMMAND_CHANGED = "check_command_changed"  # a profile command changed or dropped


class WeakeningFound(EventPayload):
    """`test_integrity_weakened`: one weakening of `path`'s `test` against `baseline`.

    `test` is the qualified name (`TestClass::test_name`, `suite > case`, a workflow's
    `job/step`, a profile's `commands.NAME`); `line` is where it is (the baseline's line
    when the test is gone)."""

    KIND = "test_integrity_weakened"

    baseline: Oid
    path: str = Field(max_length=4096)
    test: str = Field(max_length=1024)
    rule: WeakeningRule
    detail: str = Field(max_length=1024)
    line: int | None = None

    def key(self) -> tuple[str, str, str]:
        return (self.path, self.test, self.rule.value)


class AcceptedWeakening(Record):
    """One finding a person accepted, by its identity."""

    path: str = Field(max_length=4096)
    test: str = Field(max_length=1024)
    rule: WeakeningRule

    def key(self) -> tuple[str, str, str]:
        return (self.path, self.test, self.rule.value)


class WeakeningsAccepted(EventPayload):
    """`test_integrity_accepted`: a person accepts these findings of this tree, and why.
    Who accepted is the event's actor (a git identity)."""

    KIND = "test_integrity_accepted"

    baseline: Oid
    reason: str = Field(min_length=1, max_length=1024)
    findings: list[AcceptedWeakening]
