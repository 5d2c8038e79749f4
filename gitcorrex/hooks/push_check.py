"""The pre-push check: what each pushed ref adds, judged by `git correx check`'s range gate.

The hook only chooses the trusted base of each update; the range check (every commit against
its first parent, merges on what they did not take from another parent, and the net diff,
against the manifest read from the base) is the one `check` runs in CI. Policy:
- a branch other than the remote's default: base = the default branch as last fetched
  (`refs/remotes/<remote>/HEAD`), i.e. exactly `git correx check <remote>/HEAD..<pushed>`,
  what CI runs on the pull request. The manifest comes from the default branch, so a
  widening pushed earlier with `--no-verify` to the same topic branch does not count, and
  merging the default branch into a topic does not blame the topic for its changes;
- the default branch itself: base = the remote's current tip (`<remote sha>`);
- no known default branch: an existing ref is judged from the remote's tip, a new ref fails;
- a deletion is not checked, nor a notes ref (the ledger: no work-tree commits); with no
  stage selected nothing is checked (as for pre-commit);
- fail closed (exit 3) when the base cannot be known: the remote tip is not in this
  repository (fetch first), a new ref on a remote with no known default branch (`git remote
  set-head <remote> --auto`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gitcorrex.errors import UnavailableError
from gitcorrex.git import Repository, config_value, remote_default_branch, resolve_commit
from gitcorrex.hooks import STAGE_CONFIG
from gitcorrex.manifest.range_check import check_range
from gitcorrex.manifest.range_report import RangeReport
from gitcorrex.model.conclusion import Conclusion

if TYPE_CHECKING:
    from gitcorrex.manifest.check import ChangeFilter


@dataclass(frozen=True)
class PushUpdate:
    """One line git hands pre-push: `<local ref> <local sha> <remote ref> <remote sha>`."""

    local_ref: str
    local_oid: str
    remote_ref: str
    remote_oid: str


@dataclass(frozen=True)
class BlockedUpdate:
    """A ref update whose range has violations."""

    update: PushUpdate
    report: RangeReport


@dataclass(frozen=True)
class PushCheck:
    """The ref updates of one push whose ranges have violations; none means ALLOW."""

    stage: str | None
    blocked: list[BlockedUpdate]

    @property
    def conclusion(self) -> Conclusion:
        """Failed when an update is blocked: git stops the whole push."""
        return Conclusion.CHECK_FAILED if self.blocked else Conclusion.OK


def parse_updates(data: bytes) -> list[PushUpdate]:
    """The ref updates from pre-push's stdin (blank or malformed lines are skipped)."""
    updates = []
    for line in data.decode("utf-8", "surrogateescape").splitlines():
        fields = line.split(" ")
        if len(fields) == 4:
            updates.append(PushUpdate(*fields))
    return updates


def check_push(repo: Repository, *, remote: str, updates: list[PushUpdate],
               exempt: ChangeFilter | None = None) -> PushCheck:
    """Every update's range checked from its trusted base (`exempt`: check_range); no stage
    → nothing checked."""
    stage = config_value(repo, STAGE_CONFIG) or None
    if stage is None:
        return PushCheck(None, [])
    blocked = []
    for update in updates:
        if _is_zero(update.local_oid):
            continue  # a deletion adds nothing
        if update.remote_ref.startswith("refs/notes/"):
            continue  # notes (the ledger `sync` pushes) carry no commits of the work tree
        base = _base_of(repo, remote, update)
        report = check_range(repo, spec=f"{base}..{update.local_oid}", stage=stage,
                             exempt=exempt)
        if not report.ok:
            blocked.append(BlockedUpdate(update, report))
    return PushCheck(stage, blocked)


def _base_of(repo: Repository, remote: str, update: PushUpdate) -> str:
    """The trusted base commit for one update (see the policy above)."""
    default = remote_default_branch(repo, remote)
    if default is not None and update.remote_ref != default.ref:
        return default.commit
    if not _is_zero(update.remote_oid):
        if resolve_commit(repo, update.remote_oid) is None:
            raise UnavailableError(
                f"pre-push: {remote}'s {update.remote_ref} is at {update.remote_oid}, which "
                "this repository does not have: its manifest cannot be read",
                hint=f"`git fetch {remote}` and integrate its changes, then push again")
        return update.remote_oid
    if default is not None:
        return default.commit
    raise UnavailableError(
        f"pre-push: {update.remote_ref} is new on {remote}, and {remote} has no known "
        "default branch to judge it from",
        hint=f"run `git remote set-head {remote} --auto` (after `git fetch {remote}`), "
             "then push again")


def _is_zero(oid: str) -> bool:
    return set(oid) == {"0"}
