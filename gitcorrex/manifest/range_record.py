"""`check --record`: a BLOCK `tool_call_assessed` on each violating commit's tree, for reviewers.

Without it the range gate is read-only (CI runs it on a fresh clone that has no ledger).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from gitcorrex.git import Repository
from gitcorrex.manifest.assessment_record import record_assessment
from gitcorrex.manifest.check import Violation
from gitcorrex.manifest.range_report import RangeReport
from gitcorrex.model.assessment import PathVerdict, Rule
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.repo_paths import printable_path


def record_range(
    repo: Repository, report: RangeReport, *, clock: Callable[[], datetime], provenance: Provenance
) -> list[RecordedEvent]:
    """One event (origin `check`, action `commit`) per violating commit; [] when clean."""
    return [
        record_assessment(
            repo,
            tree=commit.tree,
            origin="check",
            action="commit",
            manifest=report.manifest,
            verdicts=_verdicts(commit.violations),
            session=None,
            stage=report.stage,
            commit=commit.sha,
            clock=clock,
            provenance=provenance,
        )
        for commit in report.violating
    ]


def _verdicts(violations: Sequence[Violation]) -> list[PathVerdict]:
    """Paths as printed (escaped): ledger lines are text, and a lone surrogate is not."""
    return [
        PathVerdict(
            path=printable_path(v.path), change=v.change, rule=Rule(v.rule), detail=v.detail
        )
        for v in violations
    ]
