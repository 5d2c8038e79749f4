"""The grounding gate: every file a brief references must exist in the state tree.

The tree the state key names is the only oracle (never the file system): a reference is
`present` when the tree records that path, `absent` when it does not, and `unknown` when
it lies inside a submodule (whose files the tree does not hold). Absent references fail
the gate; unknown ones are reported and do not block. The paths (and their directories,
to find a submodule) are looked up in the tree directly, never by listing it.
"""

from __future__ import annotations

from gitcorrex.gates.artifacts import Artifact
from gitcorrex.gates.references import extract_references
from gitcorrex.git import GITLINK_MODE, Repository, path_modes
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.gates import BriefGroundingChecked, GroundingReference, ReferenceStatus

MAX_REFERENCES = 500
FEEDBACK = "Reference only files you have read. These paths do not exist in the workspace:"


def ground_artifacts(repo: Repository, tree: str,
                     artifacts: dict[str, Artifact]) -> BriefGroundingChecked:
    """Check the references of every given artifact against `tree`."""
    found = [(name, ref) for name, artifact in artifacts.items()
             for ref in extract_references(artifact.document)]
    statuses = tree_statuses(repo, tree, sorted({ref.path for _, ref in found}))
    references = [GroundingReference(path=ref.path, artifact=name, where=bound_text(ref.where),
                                     status=statuses[ref.path]) for name, ref in found]
    missing = sum(r.status is ReferenceStatus.ABSENT for r in references)
    blobs = {name: a.record.blob for name, a in artifacts.items() if a.record.blob}
    return BriefGroundingChecked(
        artifacts=blobs, references=_bounded(references),
        references_omitted=max(0, len(references) - MAX_REFERENCES), missing=missing,
        passed=missing == 0)


def tree_statuses(repo: Repository, tree: str, paths: list[str]) -> dict[str, ReferenceStatus]:
    """Each path's status in `tree`: the path itself, else a gitlink among its parents."""
    parents = {path[:cut] for path in paths for cut in _cuts(path)}
    modes = path_modes(repo, tree, [*paths, *sorted(parents)])
    statuses = {}
    for path in paths:
        if modes[path] is not None:
            statuses[path] = ReferenceStatus.PRESENT
        elif any(modes[path[:cut]] == GITLINK_MODE for cut in _cuts(path)):
            statuses[path] = ReferenceStatus.UNKNOWN
        else:
            statuses[path] = ReferenceStatus.ABSENT
    return statuses


def _cuts(path: str) -> list[int]:
    """Where each parent directory of `path` ends (`a/b/c.py` → the ends of `a`, `a/b`)."""
    return [index for index, char in enumerate(path) if char == "/"]


def grounding_feedback(checked: BriefGroundingChecked) -> str:
    """The misses, each with where the artifact named it."""
    lines = [f"  {r.path}  ({r.artifact}: {r.where})" for r in checked.references
             if r.status is ReferenceStatus.ABSENT]
    return "\n".join([FEEDBACK, *lines])


def _bounded(references: list[GroundingReference]) -> list[GroundingReference]:
    """Absent ones first (they are the point), then the rest, up to the bound."""
    absent = [r for r in references if r.status is ReferenceStatus.ABSENT]
    rest = [r for r in references if r.status is not ReferenceStatus.ABSENT]
    return (absent + rest)[:MAX_REFERENCES]
