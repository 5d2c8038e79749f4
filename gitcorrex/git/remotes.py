"""What this repository knows about a remote's default branch (`refs/remotes/<r>/HEAD`)."""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.repository import Repository


@dataclass(frozen=True)
class DefaultBranch:
    """The remote's default branch as a ref on the remote, and the commit last fetched."""

    ref: str
    commit: str


def remote_default_branch(repo: Repository, remote: str) -> DefaultBranch | None:
    """`refs/remotes/<remote>/HEAD`, resolved; None when it is not set (or dangles)."""
    head = f"refs/remotes/{remote}/HEAD"
    target = run_git(["symbolic-ref", "-q", head], cwd=repo.common_dir, check=False)
    commit = run_git(["rev-parse", "-q", "--verify", f"{head}^{{commit}}"],
                     cwd=repo.common_dir, check=False)
    if target.returncode != 0 or commit.returncode != 0:
        return None
    tracking = decode_path(target.stdout).strip()
    branch = "refs/heads/" + tracking.removeprefix(f"refs/remotes/{remote}/")
    return DefaultBranch(branch, commit.stdout.decode("ascii").strip())


def head_branch(repo: Repository) -> str | None:
    """The branch HEAD is on (`refs/heads/topic`); None when HEAD is detached."""
    out = run_git(["symbolic-ref", "-q", "HEAD"], cwd=repo.work_tree or repo.git_dir,
                  check=False)
    if out.returncode != 0:
        return None
    return decode_path(out.stdout).strip() or None


def head_upstream(repo: Repository) -> str | None:
    """The full ref of the upstream HEAD's branch tracks (`refs/remotes/origin/main`, or a
    local `refs/heads/main`); None when detached, unset or gone."""
    out = run_git(["rev-parse", "-q", "--verify", "--symbolic-full-name", "HEAD@{upstream}"],
                  cwd=repo.work_tree or repo.git_dir, check=False)
    if out.returncode != 0:
        return None
    return decode_path(out.stdout).strip() or None
