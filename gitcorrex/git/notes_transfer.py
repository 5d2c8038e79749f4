"""Fetching and pushing the ledger ref with explicit refspecs: nothing forced, no config.

Fetch: `<ref>:refs/notes/remotes/<remote>/<name>` (a fast-forward of the tracking ref only,
never `+refs/notes/*`, which would overwrite unpushed local notes). Push: one commit id to
`<ref>` without force, so a remote that moved rejects it and the caller merges again. The
user's `remote.*.fetch` / `remote.*.push` settings are never read or written.
"""

from __future__ import annotations

import pygit2

from gitcorrex.errors import GitCommandError, UnavailableError, UsageError
from gitcorrex.git.config import config_value
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.repository import Repository

_MISSING_REF = "couldn't find remote ref"
_MOVED = ("non-fast-forward", "fetch first", "failed to update ref", "cannot lock ref",
          "stale info", "incorrect old value")


def tracking_ref(repo: Repository, remote: str, ref: str) -> str:
    """`refs/notes/remotes/<remote>/<name>` for a configured remote; exit 2 otherwise."""
    if config_value(repo, f"remote.{remote}.url") is None:
        raise UsageError(f"no remote named {remote!r} in this repository",
                         hint="name a remote from `git remote -v`, or `git remote add NAME URL`")
    tracking = f"refs/notes/remotes/{remote}/{ref.removeprefix('refs/notes/')}"
    if not pygit2.reference_is_valid_name(tracking):
        raise UsageError(f"remote name {remote!r} cannot name a ref ({tracking})",
                         hint="rename the remote with `git remote rename`")
    return tracking


def fetch_ledger(repo: Repository, remote: str, ref: str, tracking: str) -> str | None:
    """Fetch the remote's `ref` into `tracking`; the fetched tip, or None when it has none."""
    args = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules",
            remote, f"{ref}:{tracking}"]
    result = run_git(args, cwd=repo.work_tree or repo.git_dir, check=False)
    stderr = decode_path(result.stderr)
    if result.returncode != 0 and _MISSING_REF in stderr:
        return None
    if result.returncode != 0 and "non-fast-forward" in stderr:
        raise UnavailableError(
            f"{remote}'s {ref} was rewritten: it no longer contains {tracking}",
            hint=f"if that is intended, `git update-ref -d {tracking}` and sync again",
        )
    if result.returncode != 0:
        raise GitCommandError(["git", *args], result.returncode, stderr)
    found = repo.shared_libgit2().references.get(tracking)
    return None if found is None else str(found.target)


def push_ledger(repo: Repository, remote: str, ref: str, commit: str, tracking: str) -> bool:
    """Push `commit` to the remote's `ref` without force; False when the remote moved.

    On success the tracking ref records what the remote now holds, as git does for branches.
    """
    args = ["push", "--porcelain", "--quiet", remote, f"{commit}:{ref}"]
    result = run_git(args, cwd=repo.work_tree or repo.git_dir, check=False)
    if result.returncode == 0:
        repo.shared_libgit2().references.create(tracking, pygit2.Oid(hex=commit), force=True)
        return True
    report = decode_path(result.stdout + result.stderr)
    if any(line.startswith("!") for line in report.splitlines()) and any(
        reason in report for reason in _MOVED
    ):
        return False
    raise GitCommandError(["git", *args], result.returncode, report)
