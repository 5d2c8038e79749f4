"""The one question every gate asks: which weakenings of this state are not accepted?

The Stop hook (agents/stop_check.py), a step's settlement (session/test_integrity.py) and
`git correx check --require-test-integrity` (review/) all ask `judge_integrity`: the scan of
`state` against `baseline`, the findings recorded on the state tree (when asked), and the
acceptances recorded there. A finding is open until a person accepts it on this exact tree
(`git correx accept-tests`) or the test is restored (the next scan no longer finds it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.git import Repository
from gitcorrex.integrity.findings import Weakening
from gitcorrex.integrity.record import Key, accepted_keys, record_findings
from gitcorrex.integrity.scan import Scan, scan_trees
from gitcorrex.model.events import Provenance
from gitcorrex.model.test_integrity import WeakeningFound
from gitcorrex.model.typed_facts import read_facts

LISTED = 10
AGENT_ADVICE = ("Restore the tests (or the check). If the change is meant, say so and stop: "
                "only a person may accept it (`git correx accept-tests`).")


@dataclass(frozen=True)
class Integrity:
    """A scan and the findings of it a person accepted on the state tree."""

    scan: Scan
    accepted: frozenset[Key]
    events: tuple[tuple[Key, str], ...] = ()  # each recorded finding's event id

    def event_of(self, finding: Weakening) -> str | None:
        """The id of the event that records `finding` on the state tree (None: unrecorded)."""
        return dict(self.events).get(finding.key())

    @property
    def open(self) -> list[Weakening]:
        """The findings no acceptance on this tree covers."""
        return [f for f in self.scan.findings if f.key() not in self.accepted]

    @property
    def ok(self) -> bool:
        return not self.open

    def describe(self, advice: str | None = None) -> str:
        """One line per open finding (the first ten), then `advice` (default: what an agent
        may do about it); "" when ok."""
        found = self.open
        if not found:
            return ""
        lines = [f"git correx: {len(found)} test weakening(s) in state {self.scan.state[:12]} "
                 f"against {self.scan.baseline[:12]}:"]
        lines += [f"  {finding.describe()}" for finding in found[:LISTED]]
        if len(found) > LISTED:
            lines.append(f"  … and {len(found) - LISTED} more (`git correx accept-tests "
                         "--dry-run` lists them all)")
        lines.append(advice or AGENT_ADVICE)
        return "\n".join(lines) + "\n"


def judge_integrity(repo: Repository, *, baseline: str, state: str,
                    record: Callable[[], Provenance] | None = None,
                    now: datetime | None = None) -> Integrity:
    """Scan `state` against `baseline`; with `record` (the provenance to record as) and
    `now`, record findings not yet on the tree; read the acceptances on it."""
    scan = scan_trees(repo, baseline=baseline, state=state)
    if not scan.findings:
        return Integrity(scan, frozenset())
    if record is not None and now is not None:
        record_findings(repo, baseline=baseline, state=state, findings=scan.findings,
                        now=now, provenance=record())
    view = ledger.LedgerView(repo, ledger.ledger_tip(repo))
    entries = view.scanned_on(state).entries
    recorded = tuple((fact.payload.key(), fact.id) for fact in read_facts(entries, WeakeningFound)
                     if fact.payload.baseline == baseline)
    # an acceptance is a person's decision: unsigned, it does not count where signed
    # decisions are required (ledger/decisions.py)
    return Integrity(scan, frozenset(accepted_keys(view.counted_on(state))), recorded)
