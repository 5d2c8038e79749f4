"""`git correx check`: the CI gate over a range, and its one exit decision.

The range's manifest verdict (range_check.py), recorded on each violating commit's tree when
asked (range_record.py), and, when CI trusts recorded passes, the head's required pass. That
last check is review's (review/require_pass.py); this package never imports it: the caller
hands it in as `required`, a function of the range's report (its base and head), and the
head's test integrity (review/required_integrity.py) as `integrity`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from gitcorrex.git import Repository
from gitcorrex.manifest.check import ChangeFilter
from gitcorrex.manifest.range_check import check_range
from gitcorrex.manifest.range_record import record_range
from gitcorrex.manifest.range_report import RangeReport
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.events import Provenance


class HeadCheck(Protocol):
    """A further condition on the range's head (review's RequiredPass)."""

    @property
    def ok(self) -> bool: ...

    def as_dict(self) -> dict[str, object]: ...

    def describe(self) -> str: ...


@dataclass(frozen=True)
class RangeGate:
    """The gate's outcome: the range report, how many BLOCKs were recorded (None when
    nothing was asked to be or nothing violated), and the head check when one was asked."""

    report: RangeReport
    recorded: int | None = None
    required: HeadCheck | None = None
    integrity: HeadCheck | None = None  # review's RequiredIntegrity, when asked

    @property
    def conclusion(self) -> Conclusion:
        """OK when the range is clean and every head check asked holds, else failed."""
        held = all(check.ok for check in (self.required, self.integrity) if check is not None)
        return Conclusion.OK if self.report.ok and held else Conclusion.CHECK_FAILED

    def as_dict(self) -> dict[str, object]:
        """The report's document, with `required_pass` / `test_integrity` when asked."""
        document = self.report.as_dict()
        if self.required is not None:
            document["required_pass"] = self.required.as_dict()
        if self.integrity is not None:
            document["test_integrity"] = self.integrity.as_dict()
        return document


def check_range_gate(repo: Repository, *, spec: str, stage: str | None, record: bool,
                     clock: Callable[[], datetime], provenance: Callable[[], Provenance],
                     required: Callable[[RangeReport], HeadCheck] | None,
                     integrity: Callable[[RangeReport], HeadCheck] | None = None,
                     exempt: ChangeFilter | None = None) -> RangeGate:
    """Judge `spec` (raises when history is missing; `exempt`: check_range), record BLOCKs
    when `record`, then ask `required` about the range's head (under its base's profile) and
    `integrity` about its tests."""
    report = check_range(repo, spec=spec, stage=stage, exempt=exempt)
    recorded = None
    if record and not report.ok:
        recorded = len(record_range(repo, report, clock=clock, provenance=provenance()))
    return RangeGate(report, recorded, None if required is None else required(report),
                     None if integrity is None else integrity(report))
