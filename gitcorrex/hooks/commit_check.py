"""The pre-commit (and pre-merge-commit) check: the tree git is about to commit, against
the manifest HEAD declares for the selected stage.

git hands the hook the index it will commit in GIT_INDEX_FILE (a temporary one for
`git commit -a` and `git commit <path>`); the diff is `staged_changes`' own (exactly that
index, rename detection off, submodules never ignored, no user diff configuration, raw
bytes). The verdict is `check_changes`': a path is a violation exactly when it is not
canonical or the manifest does not allow it, so when every path passes those two tests the
commit is allowed without building a record per path; otherwise `check_changes` describes
each violation (renames labelled, change types named).
The manifest comes from HEAD, never from the index, so a commit cannot widen its own scope
(an edit of `.correx.toml` is itself a path the manifest must allow). Changes the caller's
`exempt` drops are not judged: the CLI passes agents/own_hook_files (an agent host's hook
file exactly as `hooks install --agent` writes it), knowledge this layer cannot import.

Speed (benchmarks/bench_hook.py): with no stage selected the check costs one `git config`.
Otherwise git reads HEAD and diffs the index on a thread while this process imports the
matcher (pathspec: ~35 ms, about as long as the diff of 10,000 paths), and neither
pydantic nor pygit2 is imported unless a profile must be validated for the first time
(see manifest_cache) or a block is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gitcorrex.git import (
    ObjectInfo,
    Repository,
    config_value,
    in_background,
    lookup_objects,
    parse_raw_diff,
    raw_paths,
    staged_raw_diff,
)
from gitcorrex.hooks import PROFILE_NAME, SESSION_CONFIG, STAGE_CONFIG
from gitcorrex.model.conclusion import Conclusion

if TYPE_CHECKING:
    from gitcorrex.manifest.check import ChangeFilter, Violation
    from gitcorrex.model.write_manifest import Manifest


@dataclass(frozen=True)
class CommitCheck:
    """The verdict on one commit in progress; `violations` empty means ALLOW.
    `manifest` is None when no stage is selected (nothing is checked); `from_step` says it
    is the active session step's declared writes rather than the stage's from HEAD."""

    hook: str
    stage: str | None
    manifest: Manifest | None
    base_tree: str | None
    violations: list[Violation]
    from_step: bool = False

    @property
    def blocked(self) -> bool:
        return bool(self.violations)

    @property
    def conclusion(self) -> Conclusion:
        """Failed when a path is outside the manifest: git stops the commit."""
        return Conclusion.CHECK_FAILED if self.blocked else Conclusion.OK


@dataclass(frozen=True)
class _Base:
    tree: str | None
    profile: ObjectInfo | None
    raw_diff: bytes


def check_commit(repo: Repository, *, hook: str, session: str | None = None,
                 exempt: ChangeFilter | None = None) -> CommitCheck:
    """Check the index git would commit against the active step's declared writes (a
    session's step is active: `session`, else `correx.session`), else HEAD's manifest for
    `correx.stage`.

    No step and no stage → ALLOW without reading anything else. A stage HEAD cannot provide
    (unborn HEAD, no profile, no such stage, invalid profile) or a selected session the
    ledger lacks → ConfigError (exit 2): the hook never silently stops enforcing.
    """
    step_manifest = _step_manifest(repo, session)
    stage = config_value(repo, STAGE_CONFIG) or None
    if stage is None and step_manifest is None:
        return CommitCheck(hook, None, None, None, [])
    pending = in_background(lambda: _read_base(repo))
    from gitcorrex.hooks.manifest_cache import base_manifest
    from gitcorrex.manifest.check import check_changes
    from gitcorrex.model.repo_paths import path_problem

    base = pending()
    manifest = step_manifest or base_manifest(repo, base_tree=base.tree, profile=base.profile,
                                              base_label="HEAD", stage=str(stage))
    if manifest.unrestricted or all(path_problem(path) is None and
                                    manifest.allows(path, gitlink=gitlink)
                                    for path, gitlink in raw_paths(base.raw_diff)):
        return CommitCheck(hook, stage, manifest, base.tree, [], step_manifest is not None)
    changes = parse_raw_diff(base.raw_diff)
    violations = check_changes(changes if exempt is None else exempt(repo, changes), manifest)
    return CommitCheck(hook, stage, manifest, base.tree, violations, step_manifest is not None)


def _read_base(repo: Repository) -> _Base:
    """HEAD's tree, the profile blob in it, and the raw diff of the index against that tree
    (`staged_changes` = `parse_raw_diff` of these bytes)."""
    head, profile = lookup_objects(repo, ["HEAD^{tree}", f"HEAD^{{tree}}:{PROFILE_NAME}"])
    tree = head.oid if head is not None else None
    return _Base(tree, profile, staged_raw_diff(repo, base_tree=tree))


def _step_manifest(repo: Repository, session: str | None) -> Manifest | None:
    """The active step's writes; nothing is imported when no session is selected."""
    chosen = session or config_value(repo, SESSION_CONFIG) or None
    if chosen is None:
        return None
    from gitcorrex.session.manifest import active_step_manifest

    return active_step_manifest(repo, chosen)
