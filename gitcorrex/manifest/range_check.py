"""The CI range gate: every commit of BASE..HEAD and the net diff, judged by BASE's manifest.

The pre-commit hook is a convenience that `--no-verify`, `core.hooksPath`, cherry-picks,
rebases and `merge --no-ff` all skip; this check reads only commits, so it sees them all.
The manifest comes from BASE (the trusted base), so a commit that widens `.correx.toml` is
judged by the manifest it tried to widen. A merge is judged against its first parent, on the
paths it did not take unchanged from another parent: those were judged on the commits that
made them, or already are in BASE. History that cannot be walked fails closed (exit 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from gitcorrex.errors import GitCommandError, UnavailableError, UsageError
from gitcorrex.git import (
    DiffPair,
    PathChange,
    RangeCommit,
    Repository,
    diff_commit_pairs,
    merge_bases,
    names_object,
    range_commits,
    resolve_commit,
    shallow_info,
    tree_of,
)
from gitcorrex.manifest.check import ChangeFilter, Violation, check_changes
from gitcorrex.manifest.range_report import CommitReport, RangeReport
from gitcorrex.manifest.trusted import manifest_at
from gitcorrex.model.write_manifest import Manifest
from gitcorrex.profiles.stage import selected_stage

FETCH_HINT = (
    "fetch the whole history: `git fetch --unshallow` (or fetch the base branch), "
    "or `fetch-depth: 0` with actions/checkout in CI"
)


def parse_range(spec: str) -> tuple[str, str]:
    """`BASE..HEAD` (HEAD defaults to `HEAD`); anything else is a usage error (exit 2)."""
    base, dots, head = spec.partition("..")
    if not dots or not base or head.startswith("."):
        raise UsageError(
            f"not a range: {spec!r}",
            hint="give BASE..HEAD, e.g. `git correx check origin/main..HEAD`",
        )
    return base, head or "HEAD"


def check_range(repo: Repository, *, spec: str, stage: str | None,
                exempt: ChangeFilter | None = None) -> RangeReport:
    """Judge every commit of `spec` and its net diff, less what `exempt` drops (correx's own
    hook files: manifest/check.py); raises when history is missing."""
    base_rev, head_rev = parse_range(spec)
    base, head = _commit(repo, base_rev, "base"), _commit(repo, head_rev, "head")
    commits, bases = _walk(repo, spec, base, head)
    chosen = selected_stage(repo, stage)
    label = f"{base_rev} ({base[:12]})"
    manifest = manifest_at(repo, base_tree=tree_of(repo, base), base_label=label, stage=chosen)
    pairs = _pairs(commits, head, bases)
    diffs = iter(diff_commit_pairs(repo, pairs))
    if exempt is not None:
        diffs = (exempt(repo, changes) for changes in diffs)
    reports = tuple(_judge_commit(commit, diffs, manifest) for commit in commits)
    net = _unique(v for _ in bases for v in check_changes(next(diffs), manifest))
    return RangeReport(spec, base, head, label, chosen, manifest, reports, tuple(bases), net)


def _judge_commit(
    commit: RangeCommit, diffs: Iterator[list[PathChange]], manifest: Manifest
) -> CommitReport:
    """Consume the commit's diffs (one per parent) and check what it changed itself."""
    changes = _merge_changes(next(diffs), [next(diffs) for _ in commit.parents[1:]])
    violations = tuple(check_changes(changes, manifest))
    return CommitReport(commit.sha, commit.parents, commit.tree, commit.subject, violations)


def _commit(repo: Repository, rev: str, end: str) -> str:
    sha = resolve_commit(repo, rev)
    if sha is not None:
        return sha
    if names_object(repo, rev):
        raise UsageError(
            f"the {end} of the range is not a commit: {rev!r}", hint="name a commit, branch or tag"
        )
    raise UnavailableError(
        f"unknown revision {rev!r} (the {end} of the range): this clone does not have it",
        hint=FETCH_HINT,
    )


def _walk(repo: Repository, spec: str, base: str, head: str) -> tuple[list[RangeCommit], list[str]]:
    """The range's commits and merge bases, or UnavailableError when history is cut."""
    shallow = shallow_info(repo)
    try:
        commits = range_commits(repo, base, head)
    except GitCommandError as exc:
        raise UnavailableError(f"cannot walk {spec}: {exc.message}", hint=FETCH_HINT) from exc
    cut = [c.sha[:12] for c in commits if c.sha in shallow.boundary]
    if cut:
        raise UnavailableError(
            f"shallow history: {spec} reaches the shallow boundary at "
            f"{', '.join(cut)}; its parents are not in this clone",
            hint=FETCH_HINT,
        )
    bases = merge_bases(repo, base, head)
    if not bases and shallow.shallow:
        raise UnavailableError(
            f"shallow history: no common ancestor of {spec} in this clone", hint=FETCH_HINT
        )
    if not bases:
        raise UnavailableError(
            f"{spec}: the base shares no history with the head",
            hint=f"name a base the branch was made from (e.g. origin/main), or {FETCH_HINT}",
        )
    return commits, bases


def _pairs(commits: Sequence[RangeCommit], head: str, bases: Sequence[str]) -> list[DiffPair]:
    """Each commit against each parent (first parent first), then head against each base."""
    pairs: list[DiffPair] = []
    for commit in commits:
        parents: Sequence[str | None] = commit.parents or (None,)
        pairs.extend((commit.sha, parent) for parent in parents)
    pairs.extend((head, base) for base in bases)
    return pairs


def _merge_changes(first: list[PathChange], others: list[list[PathChange]]) -> list[PathChange]:
    """Changes against the first parent that also differ from every other parent."""
    other_paths = [{change.path for change in other} for other in others]
    return [c for c in first if all(c.path in paths for paths in other_paths)]


def _unique(violations: Iterable[Violation]) -> tuple[Violation, ...]:
    """Each net violation once, even when several merge bases report it."""
    return tuple(dict.fromkeys(violations))
