"""The pre-push check: every commit a push adds, against the manifest at a trusted base.

Policy (documented in the README):
- an update of an existing remote ref is judged by the manifest at the remote's current
  tip (`<remote sha>`), and every commit in `<remote sha>..<local sha>` is checked against
  its first parent;
- a new ref (remote sha all zeros) is judged from the merge base of the pushed commit with
  the remote's default branch (`refs/remotes/<remote>/HEAD`): the commits after it are
  checked against the manifest there;
- deletions are not checked;
- fail closed (exit 3) when the base cannot be known: the remote tip is not in this
  repository (fetch first), the remote has no known default branch (`git remote set-head
  <remote> --auto`), or the histories share no commit.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.errors import UnavailableError
from gitcorrex.git.changes import tree_changes
from gitcorrex.git.hookdirs import git_config
from gitcorrex.git.objects import lookup_objects
from gitcorrex.git.ranges import commit_exists, commits_between, merge_base, resolve_commit
from gitcorrex.git.repository import Repository
from gitcorrex.hooks.commit_check import PROFILE_NAME
from gitcorrex.hooks.manifest_cache import base_manifest
from gitcorrex.hooks.status import STAGE_CONFIG
from gitcorrex.manifest.check import Violation, check_changes
from gitcorrex.manifest.spec import Manifest


@dataclass(frozen=True)
class PushUpdate:
    """One line git hands pre-push: `<local ref> <local sha> <remote ref> <remote sha>`."""

    local_ref: str
    local_oid: str
    remote_ref: str
    remote_oid: str


@dataclass(frozen=True)
class BlockedCommit:
    """A pushed commit with paths outside the manifest of its base."""

    commit: str
    remote_ref: str
    manifest: Manifest
    violations: list[Violation]


@dataclass(frozen=True)
class PushCheck:
    stage: str | None
    blocked: list[BlockedCommit]


def parse_updates(data: bytes) -> list[PushUpdate]:
    """The ref updates from pre-push's stdin (refs are ASCII-safe; blank lines skipped)."""
    updates = []
    for line in data.decode("utf-8", "surrogateescape").splitlines():
        fields = line.split(" ")
        if len(fields) == 4:
            updates.append(PushUpdate(*fields))
    return updates


def check_push(repo: Repository, *, remote: str, updates: list[PushUpdate]) -> PushCheck:
    """Every commit each update adds, checked; no stage selected → nothing is checked."""
    stage = git_config(repo, STAGE_CONFIG) or None
    if stage is None:
        return PushCheck(None, [])
    blocked: list[BlockedCommit] = []
    for update in updates:
        if _is_zero(update.local_oid):
            continue  # a deletion adds nothing
        base, label = _base_of(repo, remote, update)
        manifest = _manifest_at(repo, base, label, stage)
        if manifest.unrestricted:
            continue
        for commit in commits_between(repo, base, update.local_oid):
            changes = tree_changes(repo, commit.first_parent, commit.oid)
            violations = check_changes(changes, manifest)
            if violations:
                blocked.append(BlockedCommit(commit.oid, update.remote_ref, manifest, violations))
    return PushCheck(stage, blocked)


def _base_of(repo: Repository, remote: str, update: PushUpdate) -> tuple[str, str]:
    """The trusted base commit for one update and how to name it in messages."""
    if not _is_zero(update.remote_oid):
        if not commit_exists(repo, update.remote_oid):
            raise UnavailableError(
                f"pre-push: {remote}'s {update.remote_ref} is at {update.remote_oid}, which "
                "this repository does not have: its manifest cannot be read",
                hint=f"`git fetch {remote}` and integrate its changes, then push again")
        return update.remote_oid, f"{remote}'s {update.remote_ref}"
    default = resolve_commit(repo, f"refs/remotes/{remote}/HEAD")
    if default is None:
        raise UnavailableError(
            f"pre-push: {update.remote_ref} is new on {remote}, and {remote} has no known "
            "default branch to judge it from",
            hint=f"run `git remote set-head {remote} --auto` (after `git fetch {remote}`), "
                 "then push again")
    base = merge_base(repo, update.local_oid, default)
    if base is None:
        raise UnavailableError(
            f"pre-push: {update.local_ref} shares no history with {remote}/HEAD",
            hint="push it onto a branch that starts from the remote's history")
    return base, f"the merge base with {remote}/HEAD"


def _manifest_at(repo: Repository, base: str, label: str, stage: str) -> Manifest:
    tree, profile = lookup_objects(repo, [f"{base}^{{tree}}", f"{base}^{{tree}}:{PROFILE_NAME}"])
    return base_manifest(repo, base_tree=tree.oid if tree else None, profile=profile,
                         base_label=f"{label} ({base[:12]})", stage=stage)


def _is_zero(oid: str) -> bool:
    return set(oid) == {"0"}
