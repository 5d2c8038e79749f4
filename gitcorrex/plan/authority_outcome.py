"""What an authority's command on a plan (`plan authorize`, `plan audit`) hands back:
its fact recorded now (`event`), recorded before by the same identity (`existing`), or
refused with `findings` — one shape, so both commands answer with the same exit codes.
`by` is the identity the standing fact was recorded by, read from its typed payload."""

from __future__ import annotations

from dataclasses import dataclass, field

from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.plan_events import Finding
from gitcorrex.plan.risk_audit import Identity


@dataclass(frozen=True, kw_only=True)
class AuthorityOutcome:
    """Recorded (`event`), already recorded (`existing`), or refused with `findings`;
    `by` recorded the one that stands (None when refused)."""

    plan: str
    plan_id: str
    event: RecordedEvent | None = None
    existing: RecordedEvent | None = None
    by: Identity | None = None
    findings: list[Finding] = field(default_factory=list)

    @property
    def conclusion(self) -> Conclusion:
        """OK when the fact stands (now or before); failed when it was refused."""
        return Conclusion.OK if self.event or self.existing else Conclusion.CHECK_FAILED
