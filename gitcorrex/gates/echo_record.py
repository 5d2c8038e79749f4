"""The brief echo gate's recorded fact and the feedback the restating stage reads."""

from __future__ import annotations

from gitcorrex.gates.artifacts import Artifact
from gitcorrex.gates.echo import EchoDiff
from gitcorrex.model.canonical import bound_text
from gitcorrex.model.gates import BriefEchoMismatch

MAX_LISTED = 200


def echo_fields(diff: EchoDiff, brief: Artifact, restatement: Artifact,
                threshold: str) -> BriefEchoMismatch:
    """The mismatch as recorded; both artifacts are cited by their blobs."""
    if brief.record.blob is None or restatement.record.blob is None:
        raise ValueError("the brief and its restatement are cited by their blobs: read both")
    return BriefEchoMismatch(
        brief=brief.record.blob, restatement=restatement.record.blob, threshold=threshold,
        requirements=diff.requirements, restated=diff.restated,
        dropped=diff.dropped[:MAX_LISTED],
        hallucinated_files=[bound_text(p) for p in diff.hallucinated_files[:MAX_LISTED]],
        symbols=[bound_text(s) for s in diff.symbols[:MAX_LISTED]])


def echo_feedback(fields: BriefEchoMismatch) -> str:
    """Each dropped requirement with its best coverage, each file the brief never named."""
    lines = ["The restatement does not match the brief."]
    for item in fields.dropped:
        lines.append(f"  dropped requirement {item.index}: {item.requirement!r} "
                     f"(best coverage {item.shared}/{item.union}, needs {fields.threshold})")
    for path in fields.hallucinated_files:
        lines.append(f"  file not named by the brief: {path}")
    if fields.symbols:
        lines.append(f"  (not blocking) symbols not named by the brief: "
                     f"{', '.join(fields.symbols)}")
    lines.append("Restate every requirement of the brief, and name only the files it names.")
    return "\n".join(lines)
