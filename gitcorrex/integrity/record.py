"""Findings and acceptances in the ledger, on the state tree they are about.

A finding is recorded once per (baseline, path, test, rule) on a tree: the Stop hook may
ask ten times about one state, and the ledger says it once (checked inside the
compare-and-swap, so two processes asking at once record it once too). An acceptance
names the findings it covers; it counts for that tree only, like a pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.git import Repository
from gitcorrex.integrity.findings import Weakening
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.note_lines import LedgerEntry
from gitcorrex.model.test_integrity import AcceptedWeakening, WeakeningFound, WeakeningsAccepted
from gitcorrex.model.typed_facts import read_facts

Key = tuple[str, str, str]


def finding_fields(baseline: str, finding: Weakening) -> WeakeningFound:
    """The event a finding is recorded as (texts bounded as the ledger bounds them)."""
    return WeakeningFound(baseline=baseline, path=finding.path[:4096],
                          test=finding.test[:1024], rule=finding.rule,
                          detail=finding.detail[:1024], line=finding.line)


def record_findings(repo: Repository, *, baseline: str, state: str,
                    findings: Sequence[Weakening], now: datetime,
                    provenance: Provenance) -> list[RecordedEvent]:
    """Record each of `findings` not yet recorded on `state` against `baseline`."""
    if not findings:
        return []

    def drafts(view: ledger.LedgerView) -> list[ledger.EventDraft]:
        entries = view.scanned_on(state).entries
        known = {(f.payload.baseline, *f.payload.key())
                 for f in read_facts(entries, WeakeningFound)}
        fresh = [finding_fields(baseline, f) for f in findings
                 if (baseline, *finding_fields(baseline, f).key()) not in known]
        return [ledger.EventDraft(fields, subjects=(state,), state_key=state)
                for fields in fresh]

    return ledger.append_events(repo, drafts, now=now, provenance=provenance)


def record_acceptance(repo: Repository, *, baseline: str, state: str,
                      findings: Sequence[Weakening], reason: str, now: datetime,
                      provenance: Provenance) -> RecordedEvent:
    """Record that the person `provenance` names accepts `findings` on `state`."""
    accepted = [AcceptedWeakening(path=f.path[:4096], test=f.test[:1024], rule=f.rule)
                for f in findings]
    fields = WeakeningsAccepted(baseline=baseline, reason=reason, findings=accepted)
    draft = ledger.EventDraft(fields, subjects=(state,), state_key=state)
    return ledger.append_events(repo, [draft], now=now, provenance=provenance)[0]


def accepted_keys(entries: Iterable[LedgerEntry]) -> set[Key]:
    """Every finding an acceptance among `entries` (one tree's) covers."""
    return {accepted.key() for fact in read_facts(entries, WeakeningsAccepted)
            for accepted in fact.payload.findings}
