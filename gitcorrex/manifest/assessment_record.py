"""Recording verdicts as `tool_call_assessed` events: one event per decision, on the tree
it was about (and the session, when one is named)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from gitcorrex import ledger
from gitcorrex.git import Repository
from gitcorrex.model.assessment import (
    AgentCall,
    AssessmentFields,
    PathVerdict,
    Rule,
    Verdict,
)
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.write_manifest import Manifest

MAX_PATHS = 200


def record_assessment(repo: Repository, *, tree: str, origin: str, action: str,
                      manifest: Manifest, verdicts: Sequence[PathVerdict],
                      session: str | None, stage: str | None, commit: str | None,
                      clock: Callable[[], datetime], provenance: Provenance,
                      agent: AgentCall | None = None) -> RecordedEvent:
    """Append one assessment; BLOCK if any path was blocked, its rule the first blocker's.
    `agent` names the agent hook call judged (omitted from the line when None)."""
    blocked = [v for v in verdicts if v.rule is not Rule.ALLOW]
    fields = AssessmentFields(
        origin=origin, action=action,
        verdict=Verdict.BLOCK if blocked else Verdict.ALLOW,
        rule=blocked[0].rule if blocked else Rule.ALLOW,
        manifest_source=manifest.source, manifest=list(manifest.patterns),
        paths=[_bounded(v) for v in verdicts[:MAX_PATHS]],
        paths_omitted=max(0, len(verdicts) - MAX_PATHS), commit=commit, agent=agent)
    draft = ledger.EventDraft(fields, subjects=(tree,), session=session, stage=stage,
                              state_key=tree)
    return ledger.append_events(repo, [draft], now=clock(), provenance=provenance)[0]


def _bounded(verdict: PathVerdict) -> PathVerdict:
    """Paths from outside are bounded; undecodable bytes are spelled `\\xNN` by the ledger."""
    return PathVerdict(path=bound_text(verdict.path), change=verdict.change, rule=verdict.rule,
                       detail=bound_text(verdict.detail))
