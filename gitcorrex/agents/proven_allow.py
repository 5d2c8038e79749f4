"""The allow path every agent file call takes first: no pydantic, no pygit2, no ledger.

A PreToolUse hook runs on every tool call of an agent session (hundreds per task), and almost
every call is allowed. Proving an allow needs only the repository (`git rev-parse`), the
stage and session configured (one `git config`), HEAD's profile blob (`git cat-file`, the
validated manifest cached per blob by hooks/manifest_cache) and path arithmetic; the two git
reads run on a thread while the matcher (pathspec, ~30 ms) is imported. When any of that
cannot prove an allow — a session is selected (its fold needs the ledger), a path is odd,
the manifest does not allow it, ALLOWs are to be recorded — the answer is "not proven" and
the full judge (manifest/assess.py) decides and records. So this path can only ever say
less than the judge, never something else.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from gitcorrex.agents.request import Action, HookOptions, HookRequest
from gitcorrex.git import ObjectInfo, Repository, config_values, in_background, lookup_objects
from gitcorrex.hooks import PROFILE_NAME, SESSION_CONFIG, STAGE_CONFIG


@dataclass(frozen=True)
class _Settings:
    session: str | None
    stage: str | None
    head: ObjectInfo | None
    profile: ObjectInfo | None


def proven_allowed(repo: Repository, request: HookRequest, options: HookOptions,
                   base: str) -> bool:
    """True only when the full judge would allow every path and record nothing."""
    if options.record_all or options.session or request.action not in (Action.WRITE, Action.READ):
        return False
    pending = in_background(lambda: _read_settings(repo))
    relative = _plain_paths(repo, request.paths, base)
    if request.action == Action.WRITE and relative is not None:
        from gitcorrex.hooks.manifest_cache import base_manifest  # imports while git reads
    settings = pending()
    if relative is None or settings.session:
        return False
    if request.action == Action.READ:
        return all(os.path.exists(os.path.join(repo.root, path)) for path in relative)
    stage = options.stage or settings.stage
    if not stage:
        return True  # no manifest in force: every canonical path inside the work tree
    if settings.head is None or settings.profile is None:
        return False  # the judge reports what is missing
    manifest = base_manifest(repo, base_tree=settings.head.oid, profile=settings.profile,
                             base_label="HEAD", stage=stage)
    return all(manifest.allows(path) for path in relative)


def _read_settings(repo: Repository) -> _Settings:
    values = config_values(repo, (SESSION_CONFIG, STAGE_CONFIG))
    head, profile = lookup_objects(repo, ["HEAD^{tree}", f"HEAD^{{tree}}:{PROFILE_NAME}"])
    return _Settings(values.get(SESSION_CONFIG) or None, values.get(STAGE_CONFIG) or None,
                     head, profile)


def _plain_paths(repo: Repository, paths: tuple[str, ...], base: str) -> list[str] | None:
    """Each path relative to the top level, or None when any is not plainly inside it."""
    from gitcorrex.manifest.workspace_paths import locate, relative_to
    from gitcorrex.model.repo_paths import path_problem

    root = os.path.realpath(repo.root)
    git_dirs = {os.path.realpath(repo.git_dir), os.path.realpath(repo.common_dir)}
    relative = []
    for given in paths:
        where = locate(given, base=os.path.realpath(base), root=root)
        if where.problem is not None or not where.relative or \
                path_problem(where.relative) is not None or \
                any(relative_to(where.absolute, d) is not None for d in git_dirs):
            return None
        relative.append(where.relative)
    return relative
