"""Every observation of one expectation on one tree, folded the way a reviewer reads them.

- **Runs, not lines.** A `verify --reuse` records a new observation citing the run that
  actually happened (`reused_from`): it ran nothing. Reuses fold into the run they cite
  ("reused ×6 by …"), and "latest of N" counts runs only, so one real run reused six times
  reads as one run.
- **Flaky.** When the same tree, under the same profile and in the same environment
  (`environment_digest`), both failed and passed, the result depends on luck, not on the
  bytes: the latest verdict is shown with a flaky marker and the counts. Observations that
  record no environment (older lines) are grouped together as "environment not recorded",
  said as such. An unavailable run (timeout, missing tool) is neither a pass nor a failure
  of the tree and does not make it flaky.

Pure: plain values in, plain values out; `log` (tree_status.py) and `report` both ask it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gitcorrex.model.verification import Result, VerificationFields

UNKNOWN_ENVIRONMENT = "environment not recorded"


@dataclass(frozen=True)
class Observed:
    """One observation as this fold needs it: its id, its fields, its environment digest."""

    id: str
    fields: VerificationFields
    environment: str | None


@dataclass(frozen=True)
class Flaky:
    """The same tree, profile and environment both failed and passed: how often each. With
    `by_environment`, no environment did both: the runs passed in one recorded environment
    and failed in another, so the verdict depends on where the tree ran, not on luck (the
    newest run's verdict alone would hide that)."""

    failed: int
    passed: int
    environment: str | None  # its digest; None: not recorded (or: split by environment)
    by_environment: bool = False

    @property
    def label(self) -> str:
        return "differs by environment" if self.by_environment else "flaky"

    def describe(self) -> str:
        """`flaky: failed 1×, passed 2× under the same profile and environment`, or
        `differs by environment: passed 2× in one environment, failed 1× in another`."""
        if self.by_environment:
            return (f"{self.label}: passed {self.passed}× and failed {self.failed}× under the "
                    "same profile, never both in one environment (`git correx explain` "
                    "names what differs)")
        same = "the same profile and environment" if self.environment is not None \
            else f"the same profile ({UNKNOWN_ENVIRONMENT})"
        return f"flaky: failed {self.failed}×, passed {self.passed}× under {same}"

    def as_dict(self) -> dict[str, object]:
        document: dict[str, object] = {"failed": self.failed, "passed": self.passed,
                                       "environment": self.environment}
        if self.by_environment:
            document["by_environment"] = True
        return document


def is_reuse(fields: VerificationFields) -> bool:
    """A citation of an earlier run (`verify --reuse`), which ran nothing itself."""
    return fields.reused_from is not None


def runs_of(observations: Iterable[Observed]) -> list[Observed]:
    """The observations that ran their commands (reuses left out)."""
    return [observed for observed in observations if not is_reuse(observed.fields)]


def flaky(observations: Iterable[Observed]) -> Flaky | None:
    """The first environment (in the order given: newest first) in which these runs of one
    expectation under one profile both failed and passed; else, when recorded environments
    disagree (one only passed, another only failed), that split; None otherwise. Reuses
    are not runs and count for nothing."""
    counts: dict[str | None, list[int]] = {}
    for observed in runs_of(observations):
        failed_passed = counts.setdefault(observed.environment, [0, 0])
        if observed.fields.result is Result.FAIL:
            failed_passed[0] += 1
        elif observed.fields.result is Result.PASS:
            failed_passed[1] += 1
    for environment, (failed, passed) in counts.items():
        if failed and passed:
            return Flaky(failed, passed, environment)
    recorded = {env: fp for env, fp in counts.items() if env is not None}
    failed_in = [fp[0] for fp in recorded.values() if fp[0] and not fp[1]]
    passed_in = [fp[1] for fp in recorded.values() if fp[1] and not fp[0]]
    if failed_in and passed_in:  # each recorded environment decided, and they disagree
        return Flaky(sum(failed_in), sum(passed_in), None, by_environment=True)
    return None


def reuses_of(original: str, observations: Sequence[Observed]) -> list[Observed]:
    """The reuses citing the run `original` (an event id), in the order given."""
    return [observed for observed in observations if observed.fields.reused_from == original]
