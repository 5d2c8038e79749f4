"""What `git correx gate` hands back: each gate that ran, and the feedback of the one that
failed (verbatim: it is the ground truth for whoever fixes the work)."""

from __future__ import annotations

from dataclasses import dataclass, field

from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.events import RecordedEvent

GATE_ORDER = ("produces", "grounding", "echo", "static_analysis")


@dataclass(frozen=True)
class GateResult:
    """One gate: passed or not, a one-line summary, and its recorded event (if any)."""

    gate: str
    passed: bool
    summary: str
    event: RecordedEvent | None = None


@dataclass(frozen=True)
class GateOutcome:
    """Every gate that ran, in order; `feedback` is the failing gate's, verbatim."""

    stage: str
    state_key: str
    results: list[GateResult] = field(default_factory=list)
    feedback: bytes | None = None

    @property
    def failed(self) -> GateResult | None:
        return next((result for result in self.results if not result.passed), None)

    @property
    def conclusion(self) -> Conclusion:
        return Conclusion.CHECK_FAILED if self.failed else Conclusion.OK

    @property
    def summary(self) -> str:
        failed = self.failed
        if not self.results:
            return f"stage {self.stage!r} configures no gates: nothing checked, nothing recorded"
        if failed is not None:
            return f"fail: gate {failed.gate} of stage {self.stage!r} on {self.state_key[:12]}"
        names = ", ".join(result.gate for result in self.results)
        return f"pass: stage {self.stage!r} on {self.state_key[:12]} ({names})"
