"""Creating a ref only if it does not exist yet, atomically.

libgit2's `create(force=False)` checks that the ref is absent *before* it takes the ref's
lock, so two processes creating the same ref can both pass the check and the second
silently overwrites the first (seen: the first appends of concurrent writers lost).
`git update-ref REF NEW 0000…` checks under the lock, so exactly one creator wins. This is
a git process, but only for a ref's first write.
"""

from __future__ import annotations

from pathlib import Path

from gitcorrex.errors import GitCommandError
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.write_faults import write_fault


def create_ref_if_absent(common_dir: Path, ref: str, new: str, message: str) -> bool:
    """Point `ref` at `new` if no such ref exists; False when another writer has it (or is
    creating it right now): the caller re-reads and retries."""
    args = [f"--git-dir={common_dir}", "update-ref", "-m", message, ref, new, "0" * len(new)]
    result = run_git(args, cwd=common_dir, check=False)
    if result.returncode == 0:
        return True
    if _exists(common_dir, ref) or Path(common_dir, f"{ref}.lock").exists():
        return False
    stderr = decode_path(result.stderr)
    if "already exists" in stderr or "cannot lock ref" in stderr:
        return False
    failed = GitCommandError(["git", *args], result.returncode, stderr)
    raise write_fault(common_dir, failed) or failed  # "couldn't write '….lock'": no room


def _exists(common_dir: Path, ref: str) -> bool:
    args = [f"--git-dir={common_dir}", "rev-parse", "-q", "--verify", ref]
    return run_git(args, cwd=common_dir, check=False).returncode == 0
