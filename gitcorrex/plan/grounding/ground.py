"""`git correx plan ground`: evaluate a plan against the current state key and record it.

Everything is read from the state tree (the exact path list) and its symbol index, never
from the file system, so the verdict describes exactly one state key. The profile is the
work tree's, as for `plan validate` and `plan lock`. One `plan_grounding_evaluated` event
is recorded on the state tree and the plan blob; `plan lock` accepts only a `pass` whose
state key is still the current one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.git import Repository, list_tree
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.grounding import (
    Check,
    GroundingFields,
    GroundingFinding,
    Verdict,
    verdict_for,
)
from gitcorrex.plan.grounding.inputs import GroundingInput
from gitcorrex.plan.grounding.ordering import check_ordering
from gitcorrex.plan.grounding.prerequisites import check_prerequisites
from gitcorrex.plan.grounding.references import check_references
from gitcorrex.plan.grounding.symbol_refs import check_symbols
from gitcorrex.plan.grounding.symbol_source import SymbolSource
from gitcorrex.plan.grounding.tree_view import TreeView
from gitcorrex.plan.grounding.writes import check_writes
from gitcorrex.plan.open_plan import open_plan
from gitcorrex.symbols.index import IndexStats


@dataclass(frozen=True)
class GroundingOutcome:
    """The recorded verdict and findings, and what the symbol index cost (None: not built)."""

    fields: GroundingFields
    state_key: str
    event: RecordedEvent
    stats: IndexStats | None

    @property
    def verdict(self) -> Verdict:
        return self.fields.verdict

    @property
    def conclusion(self) -> Conclusion:
        """Only `pass` is OK: any other verdict stops `plan lock`."""
        return Conclusion.OK if self.fields.verdict == Verdict.PASS else Conclusion.CHECK_FAILED


def ground_plan(repo: Repository, path: Path, *, state_key: str, now: datetime,
                provenance: Provenance, workers: int | None = None) -> GroundingOutcome:
    """Ground the plan at `path` on `state_key` and record the verdict."""
    context = open_plan(repo, path)
    view = TreeView(state_key, list_tree(repo, state_key))
    source = SymbolSource(repo, view, workers=workers)
    given = GroundingInput(context.loaded.plan, context.profile.profile, view,
                           source.index, source.mentions)
    findings = _ordered(given, [
        *check_writes(given), *check_references(given), *check_symbols(given),
        *check_prerequisites(given), *check_ordering(given)])
    fields = GroundingFields(
        plan=context.identity, plan_id=context.plan_id, verdict=verdict_for(findings),
        findings=findings, profile=context.profile.blob_oid, index=source.index_oid,
        extractors=source.versions)
    draft = ledger.EventDraft(
        fields, subjects=(state_key, context.subject), state_key=state_key,
        anchors={source.index_oid: "tree"} if source.index_oid else {})
    event = ledger.append_events(repo, [draft], now=now, provenance=provenance)[0]
    return GroundingOutcome(fields, state_key, event, source.stats)


def _ordered(given: GroundingInput, findings: list[GroundingFinding]
             ) -> list[GroundingFinding]:
    """By step (plan order), then check, keeping each check's own order."""
    position = {step.id: index for index, step in enumerate(given.plan.steps)}
    checks = list(Check)
    return sorted(findings, key=lambda f: (position.get(f.step or "", -1),
                                           checks.index(f.check)))
