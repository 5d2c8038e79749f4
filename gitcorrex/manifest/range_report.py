"""What `git correx check BASE..HEAD` found: per commit and for the net diff, as plain values.

Paths in the JSON document are the escaped form a terminal shows (valid text even for
non-UTF-8 or newline names) plus `path_hex`, the exact bytes, so nothing is ambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.git import RangeCommit, encode_path
from gitcorrex.manifest.check import Violation
from gitcorrex.model.repo_paths import printable_path
from gitcorrex.model.write_manifest import Manifest


@dataclass(frozen=True)
class CommitReport(RangeCommit):
    """One commit of the range and what it changed outside the manifest."""

    violations: tuple[Violation, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "sha": self.sha,
            "parents": list(self.parents),
            "tree": self.tree,
            "subject": printable_path(self.subject),
            "violations": [violation_dict(v) for v in self.violations],
        }


@dataclass(frozen=True)
class RangeReport:
    """The verdict on a range; `ok` only when no commit and no net diff has a violation."""

    range: str
    base: str
    head: str
    base_label: str
    stage: str | None
    manifest: Manifest
    commits: tuple[CommitReport, ...]
    merge_bases: tuple[str, ...]
    net: tuple[Violation, ...]

    @property
    def violating(self) -> list[CommitReport]:
        return [commit for commit in self.commits if commit.violations]

    @property
    def ok(self) -> bool:
        return not self.violating and not self.net

    @property
    def manifest_description(self) -> str:
        if self.manifest.unrestricted:
            return f"canonical paths (no stage selected, so no manifest) at {self.base_label}"
        return f"the manifest of {self.manifest.source} at {self.base_label}"

    @property
    def summary(self) -> str:
        """The final line: the counts, or what the range stays within."""
        if self.ok:
            return (
                f"ok: {_count(len(self.commits), 'commit')} and the net diff stay within "
                f"{self.manifest_description}"
            )
        found = sum(len(commit.violations) for commit in self.commits)
        line = f"{_count(found, 'violation')} in {_count(len(self.violating), 'commit')}"
        return f"{line}, {len(self.net)} in the net diff"

    def as_dict(self) -> dict[str, object]:
        return {
            "range": self.range,
            "base": self.base,
            "head": self.head,
            "manifest": {
                "source": self.manifest.source,
                "stage": self.stage,
                "patterns": list(self.manifest.patterns),
                "unrestricted": self.manifest.unrestricted,
                "read_from": self.base_label,
            },
            "commits": [commit.as_dict() for commit in self.commits],
            "net": {
                "merge_bases": list(self.merge_bases),
                "violations": [violation_dict(v) for v in self.net],
            },
            "ok": self.ok,
            "summary": self.summary,
        }


def violation_dict(violation: Violation) -> dict[str, object]:
    """`Violation.as_dict` with the path escaped for text and given exactly in hex."""
    return {
        **violation.as_dict(),
        "path": printable_path(violation.path),
        "path_hex": encode_path(violation.path).hex(),
    }


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
