"""The grounding gate: every file a brief references must exist in the state tree.

The tree the state key names is the only oracle (never the file system): a reference is
`present` when the tree records that path, `absent` when it does not, and `unknown` when
it lies inside a submodule (whose files the tree does not hold). Absent references fail
the gate; unknown ones are reported and do not block.
"""

from __future__ import annotations

from gitcorrex.gates.artifacts import Artifact
from gitcorrex.gates.references import extract_references
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.gates import BriefGroundingChecked, GroundingReference, ReferenceStatus
from gitcorrex.plan.grounding.tree_view import TreeView

MAX_REFERENCES = 500
FEEDBACK = "Reference only files you have read. These paths do not exist in the workspace:"


def ground_artifacts(view: TreeView, artifacts: dict[str, Artifact]) -> BriefGroundingChecked:
    """Check the references of every given artifact against `view`."""
    references = [GroundingReference(path=ref.path, artifact=name, where=bound_text(ref.where),
                                     status=_status(view, ref.path))
                  for name, artifact in artifacts.items()
                  for ref in extract_references(artifact.document)]
    missing = sum(r.status is ReferenceStatus.ABSENT for r in references)
    blobs = {name: a.record.blob for name, a in artifacts.items() if a.record.blob}
    return BriefGroundingChecked(
        artifacts=blobs, references=_bounded(references),
        references_omitted=max(0, len(references) - MAX_REFERENCES), missing=missing,
        passed=missing == 0)


def grounding_feedback(checked: BriefGroundingChecked) -> str:
    """The misses, each with where the artifact named it."""
    lines = [f"  {r.path}  ({r.artifact}: {r.where})" for r in checked.references
             if r.status is ReferenceStatus.ABSENT]
    return "\n".join([FEEDBACK, *lines])


def _status(view: TreeView, path: str) -> ReferenceStatus:
    if view.exists(path):
        return ReferenceStatus.PRESENT
    if view.submodule_holding(path) is not None:
        return ReferenceStatus.UNKNOWN
    return ReferenceStatus.ABSENT


def _bounded(references: list[GroundingReference]) -> list[GroundingReference]:
    """Absent ones first (they are the point), then the rest, up to the bound."""
    absent = [r for r in references if r.status is ReferenceStatus.ABSENT]
    rest = [r for r in references if r.status is not ReferenceStatus.ABSENT]
    return (absent + rest)[:MAX_REFERENCES]
