"""The commits a reader asks about (`git correx log`, `report`): one git process for all.

`git rev-list` parses the revision arguments exactly as `git log` would (`A..B`, `A...B`,
`^X`, a branch), and prints each commit's tree and subject in the same run, so a 1,000-commit
log costs one process, never one per commit. "Nothing there" (an empty range) is [].
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.errors import GitCommandError, UsageError
from gitcorrex.git.history import resolve_commit, run_history_git
from gitcorrex.git.process import decode_path
from gitcorrex.git.repository import Repository


@dataclass(frozen=True)
class LoggedCommit:
    """A commit as a reader sees it: its id, its tree (the state key it had) and subject."""

    sha: str
    tree: str
    subject: str


def list_commits(
    repo: Repository, revisions: list[str], *, limit: int | None = None, oldest_first: bool = False
) -> list[LoggedCommit]:
    """Commits of `revisions` (default HEAD), newest first unless `oldest_first`."""
    args = ["rev-list", "--format=%T %s"]
    if limit is not None:
        args.append(f"--max-count={limit}")
    if oldest_first:
        args.append("--reverse")
    args += ["--end-of-options", *(revisions or ["HEAD"]), "--"]
    try:
        out = run_history_git(repo, args)
    except GitCommandError as exc:
        if not revisions and resolve_commit(repo, "HEAD") is None:
            raise UsageError("HEAD has no commits yet: there is nothing to list",
                             hint="commit first, or name a revision or range, e.g. "
                                  "`origin/main`") from exc
        raise UsageError(
            f"cannot list commits of {' '.join(revisions) or 'HEAD'}: {exc.stderr.strip()}",
            hint="name a revision or range git understands, e.g. `main..HEAD` or `HEAD~20..`",
        ) from exc
    return _parse(decode_path(out).split("\n"))


def _parse(lines: list[str]) -> list[LoggedCommit]:
    commits = []
    for index in range(0, len(lines) - 1, 2):
        sha = lines[index].removeprefix("commit ").split(" ")[0]
        tree, _, subject = lines[index + 1].partition(" ")
        commits.append(LoggedCommit(sha, tree, subject))
    return commits
