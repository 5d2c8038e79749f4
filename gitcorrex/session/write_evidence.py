"""Write evidence, the first part of settling a step: every path changed since the step's
baseline must be inside the step's declared `writes`.

The hooks and `assess` judge writes one at a time and can be bypassed (`--no-verify`, an
editor outside the agent); the tree diff of the two state keys cannot: it is what the
step actually changed. Deletions, mode and type changes count (both sides of every delta,
no rename detection). The check is recorded only when it objects: one `tool_call_assessed`
(origin `settlement`, rule PATH_OUTSIDE_MANIFEST) naming every offending path.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex import ledger
from gitcorrex.git import Repository, changed_paths
from gitcorrex.model.assessment import (
    AssessmentFields,
    PathVerdict,
    Rule,
    Verdict,
)
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.plan import PlanStep
from gitcorrex.model.write_manifest import Manifest

ORIGIN = "settlement"
MAX_PATHS = 200


@dataclass(frozen=True)
class WriteEvidence:
    """What the step changed since its baseline, and which of those it did not declare."""

    baseline: str
    state_key: str
    changed: list[str]
    outside: list[str]
    manifest: Manifest

    @property
    def passed(self) -> bool:
        return not self.outside

    def feedback(self) -> str:
        """One line per offending path: what the agent must revert or re-plan."""
        lines = [f"PATH_OUTSIDE_MANIFEST {path}: changed since the step's baseline "
                 f"{self.baseline[:12]}, outside the writes of {self.manifest.source} "
                 f"[{', '.join(self.manifest.patterns)}]" for path in self.outside]
        return "\n".join([*lines, "fix: revert those paths, or re-plan the step with the "
                                  "writes it needs"]) + "\n"


def check_writes(repo: Repository, step: PlanStep, *, baseline: str,
                 state_key: str) -> WriteEvidence:
    """Diff the two trees; a step declaring no writes may change nothing."""
    changed = changed_paths(repo, baseline, state_key) if baseline != state_key else []
    manifest = Manifest(tuple(step.writes) or ("!/**",), f"step {step.id!r}")
    outside = [path for path in changed if not step.writes or not manifest.allows(path)]
    return WriteEvidence(baseline, state_key, changed, outside, manifest)


def evidence_draft(evidence: WriteEvidence, *, session: str,
                   step: PlanStep) -> ledger.EventDraft:
    """The objection as one `tool_call_assessed` on the state key, bound to the step."""
    verdicts = [PathVerdict(path=bound_text(path), change="write",
                            rule=Rule.PATH_OUTSIDE_MANIFEST,
                            detail=f"changed since the step's baseline {evidence.baseline}")
                for path in evidence.outside]
    fields = AssessmentFields(
        origin=ORIGIN, action="write", verdict=Verdict.BLOCK, rule=Rule.PATH_OUTSIDE_MANIFEST,
        manifest_source=evidence.manifest.source, manifest=list(evidence.manifest.patterns),
        paths=verdicts[:MAX_PATHS], paths_omitted=max(0, len(verdicts) - MAX_PATHS),
        commit=None)
    return ledger.EventDraft(fields, subjects=(evidence.state_key,), session=session,
                             stage=step.stage, step=step.id, state_key=evidence.state_key)
