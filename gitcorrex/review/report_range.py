"""The range `git correx report` covers when none is given: the branch, not all history.

A report is read where a pull request is reviewed, so with no range it covers what the
branch adds: the commits of HEAD since its merge base with the branch it will merge into.
That branch is the first of these that exists and shares history with HEAD:

1. the upstream of HEAD's branch (`git branch --set-upstream-to`), unless it is the
   branch's own published copy (`topic` tracking `origin/topic` says where it is pushed,
   not what it merges into);
2. the remote's default branch (`origin/HEAD`), then `main`, `origin/main`, `master`,
   `origin/master`.

When HEAD has nothing of its own against every one of them (it is on the default branch)
or none exists, the report covers the newest `RECENT` commits. Whatever was chosen is said
in one sentence, which the report prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.git import (
    Repository,
    head_branch,
    head_upstream,
    merge_bases,
    resolve_commit,
)

RECENT = 20
DEFAULTS = ("refs/remotes/origin/HEAD", "refs/heads/main", "refs/remotes/origin/main",
            "refs/heads/master", "refs/remotes/origin/master")


@dataclass(frozen=True)
class ChosenRange:
    """What to list (`revisions`, at most `limit` newest commits) and why, in one sentence."""

    revisions: list[str]
    limit: int | None
    said: str


def default_range(repo: Repository) -> ChosenRange:
    """The branch since its merge base with the first candidate base it shares history with
    and adds commits to; else the newest RECENT commits of HEAD."""
    head = resolve_commit(repo, "HEAD")
    if head is None:  # listing HEAD says what to do (commit first)
        return ChosenRange([], None, "no range given and HEAD has no commits yet")
    for ref in candidate_bases(repo):
        base = resolve_commit(repo, ref)
        shared = merge_bases(repo, base, head) if base is not None else []
        if shared and head not in shared:
            name = short_name(ref)
            shown = name if resolve_commit(repo, name) == base else ref  # not ambiguous
            return ChosenRange([f"{shown}..HEAD"], None,
                               f"no range given: {name}..HEAD, the branch since its "
                               f"merge base {shared[0][:12]} with {name}")
    return ChosenRange(["HEAD"], RECENT,
                       f"no range given and HEAD adds nothing to an upstream or default "
                       f"branch (upstream, origin/HEAD, main, master): the newest {RECENT} "
                       "commits of HEAD; name a range for others, e.g. `main..HEAD`")


def candidate_bases(repo: Repository) -> list[str]:
    """The refs a branch may merge into, in the order they are tried."""
    branch, upstream = head_branch(repo), head_upstream(repo)
    own_copy = branch is not None and upstream is not None and upstream != branch and \
        short_name(upstream).partition("/")[2] == short_name(branch)
    first = [upstream] if upstream is not None and upstream != branch and not own_copy else []
    return [*first, *(ref for ref in DEFAULTS if ref not in (branch, upstream))]


def short_name(ref: str) -> str:
    """`origin/main` for `refs/remotes/origin/main`, `main` for `refs/heads/main`."""
    for prefix in ("refs/heads/", "refs/remotes/"):
        if ref.startswith(prefix):
            return ref.removeprefix(prefix)
    return ref
