"""What one `sync` did, for the CLI's text and `--json` (rounds, refs, lines gained)."""

from __future__ import annotations

from dataclasses import dataclass, field

from gitcorrex.model.conclusion import Conclusion
from gitcorrex.sync.conflicts import SeqConflict


@dataclass(frozen=True)
class SyncResult:
    """`outcome`: up-to-date, pulled, pushed, merged-and-pushed, compacted, or conflict
    (nothing written). `rounds`: fetch-unite-push rounds used (`attempts` in JSON is the
    same number, kept for older readers). `lost_races`: git's words for each push another
    clone won, in order; `refused`: refusals of a ref the sync could do without (the
    shared ref, a writer ref to retire); `transport_errors`: broken connections retried;
    `retired`: writer refs compaction removed."""

    remote: str
    ref: str
    tracking: str
    writer: str
    outcome: str
    local_tip: str | None
    remote_tip: str | None
    rounds: int
    refs_fetched: int = 0
    refs_pushed: list[str] = field(default_factory=list)
    events_gained: int = 0
    lost_races: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    transport_errors: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    conflicts: list[SeqConflict] = field(default_factory=list)

    @property
    def attempts(self) -> int:
        return self.rounds

    @property
    def conclusion(self) -> Conclusion:
        """Failed on a seq conflict (nothing merged or pushed)."""
        return Conclusion.CHECK_FAILED if self.conflicts else Conclusion.OK

    def as_dict(self) -> dict[str, object]:
        return {"remote": self.remote, "ref": self.ref, "tracking": self.tracking,
                "writer": self.writer, "outcome": self.outcome, "local_tip": self.local_tip,
                "remote_tip": self.remote_tip, "rounds": self.rounds, "attempts": self.rounds,
                "refs_fetched": self.refs_fetched, "refs_pushed": self.refs_pushed,
                "events_gained": self.events_gained, "lost_races": self.lost_races,
                "refused": self.refused, "transport_errors": self.transport_errors,
                "retired": self.retired,
                "conflicts": [conflict.as_dict() for conflict in self.conflicts]}

    def describe(self) -> str:
        """One line: what happened, where the ledger stands, what it cost."""
        tip = (self.local_tip or "(empty)")[:12]
        extra = f", +{self.events_gained} event(s)" if self.events_gained else ""
        extra += f", {len(self.retired)} writer ref(s) retired" if self.retired else ""
        return (f"{self.outcome}: {self.ref} at {tip} ({self.remote}, {self.rounds} "
                f"round(s), {self.refs_fetched} ref(s) fetched, writer {self.writer}{extra})")
