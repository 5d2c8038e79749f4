"""Recording a hook's BLOCK as one `tool_call_assessed` event per blocked tree.

The subject is the tree that was about to be committed (`git write-tree` on the index git
handed the hook) or, for a push, each violating commit's tree; `paths` lists the violations.
Imported only when something is blocked: it brings in pydantic and pygit2.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from gitcorrex.errors import UnavailableError
from gitcorrex.git import Repository, lookup_objects, write_index_tree
from gitcorrex.hooks.commit_check import CommitCheck
from gitcorrex.hooks.push_check import BlockedUpdate
from gitcorrex.manifest.assessment_record import record_assessment
from gitcorrex.manifest.check import Violation
from gitcorrex.model.assessment import PathVerdict, Rule
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.repo_paths import printable_path


def record_commit_block(repo: Repository, check: CommitCheck, *,
                        clock: Callable[[], datetime],
                        provenance: Provenance) -> RecordedEvent:
    """One event on the tree the blocked commit would have recorded."""
    if check.manifest is None:
        raise ValueError("only a commit checked against a manifest can be blocked")
    return record_assessment(
        repo, tree=write_index_tree(repo), origin=check.hook, action="commit",
        manifest=check.manifest, verdicts=path_verdicts(check.violations), session=None,
        stage=check.stage, commit=None, clock=clock, provenance=provenance)


def record_push_block(repo: Repository, blocked: BlockedUpdate, *,
                      clock: Callable[[], datetime],
                      provenance: Provenance) -> list[RecordedEvent]:
    """One event per violating pushed commit, on its tree, naming the commit (or, when only
    the net diff has violations, one on the pushed commit's tree)."""
    report = blocked.report
    found = [(commit.tree, commit.sha, commit.violations) for commit in report.violating]
    if not found:
        (tree,) = lookup_objects(repo, [f"{report.head}^{{tree}}"])
        if tree is None:
            raise UnavailableError(f"cannot read the tree of the pushed commit {report.head}",
                                   hint="run `git fsck` to see what the repository lacks")
        found = [(tree.oid, report.head, report.net)]
    return [record_assessment(
        repo, tree=tree_oid, origin="pre-push", action="push", manifest=report.manifest,
        verdicts=path_verdicts(violations), session=None, stage=report.stage, commit=sha,
        clock=clock, provenance=provenance) for tree_oid, sha, violations in found]


def path_verdicts(violations: Sequence[Violation]) -> list[PathVerdict]:
    """Paths are stored printable (undecodable bytes as `\\xNN`): JSON holds only text."""
    return [PathVerdict(path=printable_path(v.path), change=v.change, rule=Rule(v.rule),
                        detail=v.detail or f"{v.source}: [{', '.join(v.patterns)}]")
            for v in violations]
