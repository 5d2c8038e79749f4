"""The one checker: changed paths against a manifest, each miss a violation that says what
to do. Pure: callers bring the changes (from a hook's index, a range, or a tool call)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gitcorrex.git import PathChange, Repository
from gitcorrex.model.repo_paths import path_problem, printable_path
from gitcorrex.model.write_manifest import Manifest

RULE_OUTSIDE_MANIFEST = "PATH_OUTSIDE_MANIFEST"
RULE_NON_CANONICAL = "PATH_NOT_CANONICAL"
# what a caller drops before judging: changes that are correx's own (the CLI passes
# agents/own_hook_files, an agent host's hook file exactly as installed; this layer cannot
# know the hosts' settings)
ChangeFilter = Callable[[Repository, list[PathChange]], list[PathChange]]


@dataclass(frozen=True)
class Violation:
    """One path a change may not touch: which change, under which manifest, and why."""

    path: str
    change: str
    rule: str
    source: str
    patterns: tuple[str, ...]
    detail: str = ""

    def describe(self) -> str:
        """One line for a person: the rule id, path, change, and the fix (the rule id is
        what `--json`, the ledger and the docs call it)."""
        shown = f"{self.rule} {printable_path(self.path)}"
        if self.rule == RULE_NON_CANONICAL:
            return f"{shown}: {self.change}: not a canonical path ({self.detail})"
        patterns = ", ".join(self.patterns)
        return (f"{shown}: {self.change} outside the manifest of {self.source} [{patterns}]: "
                "declare the path in the manifest, or revert the change")

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "change": self.change, "rule": self.rule,
                "source": self.source, "patterns": list(self.patterns), "detail": self.detail}


def label_renames(changes: Iterable[PathChange]) -> list[PathChange]:
    """Relabel a deletion and an addition of the same blob as renamed_from / renamed_to.

    Rename detection stays off for *finding* paths; this only names what a reader sees.
    """
    items = list(changes)
    added = {c.new_oid: c for c in items if c.change == "added"}
    deleted = {c.old_oid: c for c in items if c.change == "deleted"}
    pairs = set(added) & set(deleted)
    relabeled = []
    for c in items:
        if c.change == "added" and c.new_oid in pairs:
            c = PathChange(c.path, "renamed_to", c.old_mode, c.new_mode, c.old_oid, c.new_oid)
        elif c.change == "deleted" and c.old_oid in pairs:
            c = PathChange(c.path, "renamed_from", c.old_mode, c.new_mode, c.old_oid,
                           c.new_oid)
        relabeled.append(c)
    return relabeled


def check_changes(changes: Iterable[PathChange], manifest: Manifest) -> list[Violation]:
    """Every violation among `changes`; [] means the change stays within the manifest."""
    violations = []
    for change in label_renames(changes):
        problem = path_problem(change.path)
        if problem is not None:
            violations.append(Violation(change.path, change.change, RULE_NON_CANONICAL,
                                        manifest.source, manifest.patterns, problem))
        elif not manifest.allows(change.path, gitlink=change.is_gitlink):
            violations.append(Violation(change.path, change.change, RULE_OUTSIDE_MANIFEST,
                                        manifest.source, manifest.patterns))
    return violations
