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
