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
    """The same tree, profile and environment both failed and passed: how often each."""

    failed: int
    passed: int
    environment: str | None  # its digest; None: not recorded

    def describe(self) -> str:
        """`flaky: failed 1×, passed 2× under the same profile and environment`."""
        same = "the same profile and environment" if self.environment is not None \
            else f"the same profile ({UNKNOWN_ENVIRONMENT})"
        return f"flaky: failed {self.failed}×, passed {self.passed}× under {same}"

    def as_dict(self) -> dict[str, object]:
        return {"failed": self.failed, "passed": self.passed, "environment": self.environment}


def is_reuse(fields: VerificationFields) -> bool:
    """A citation of an earlier run (`verify --reuse`), which ran nothing itself."""
    return fields.reused_from is not None


def runs_of(observations: Iterable[Observed]) -> list[Observed]:
    """The observations that ran their commands (reuses left out)."""
    return [observed for observed in observations if not is_reuse(observed.fields)]


def flaky(observations: Iterable[Observed]) -> Flaky | None:
    """The first environment (in the order given: newest first) in which these runs of one
    expectation under one profile both failed and passed; None when none did. Reuses are
    not runs and count for nothing."""
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
    return None


def reuses_of(original: str, observations: Sequence[Observed]) -> list[Observed]:
    """The reuses citing the run `original` (an event id), in the order given."""
    return [observed for observed in observations if observed.fields.reused_from == original]
