"""The allow path every agent file call takes first: no pydantic, no pygit2, no events.

A PreToolUse hook runs on every tool call of an agent session (hundreds per task), and almost
every call is allowed. Proving an allow needs only the repository (`git rev-parse`), the
stage and session configured (one `git config`), HEAD's profile blob (`git cat-file`, the
validated manifest cached per blob by hooks/manifest_cache, compiled: no pathspec) and path
arithmetic. Inside a session it also needs the session's state — the one question
session/state.py answers, from the fold stored for the note's blobs (`git ls-tree`) — and,
while a step is active, that this call's runtime actor is the step's (`git var`): the same
state, manifest and actor the judge would use. When any of that cannot prove an allow — a
path is odd, the session is not in the ledger, another actor started the step, the manifest
does not allow it, ALLOWs are to be recorded — the answer is "not proven" and the full judge
(manifest/assess.py through session/assess_entry.py) decides and records, on the session
state read here. So this path can only ever say less than the judge, never something else.
"""

from __future__ import annotations

import os
from contextlib import suppress
from typing import NamedTuple

from gitcorrex.agents.request import Action, HookOptions, HookRequest
from gitcorrex.git import (
    ObjectInfo,
    Repository,
    begin_discover,
    begin_lookup_objects,
    begin_read_config,
    config_values,
    in_background,
    lookup_objects,
)
from gitcorrex.hooks import PROFILE_NAME, SESSION_CONFIG, STAGE_CONFIG

HEAD_OBJECTS = ("HEAD^{tree}", f"HEAD^{{tree}}:{PROFILE_NAME}")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from gitcorrex.git import GitResult, SpawnedGit
    from gitcorrex.model.session_state import SessionState
    from gitcorrex.model.write_manifest import Manifest


class _Settings(NamedTuple):
    session: str | None
    stage: str | None
    head: ObjectInfo | None
    profile: ObjectInfo | None


class AllowReads:
    """The git reads an allow needs — where the repository is, its configuration, HEAD's
    tree and profile — started side by side from the call's directory before the
    repository is known: git finds the same repository, configuration and HEAD from
    anywhere in its work tree. `discovery` answers `discover(base)`; the other two are used
    only when `base` is the top level git then names (where agents run their hooks), else
    asked again from there. Whatever nobody took is collected by `close`."""

    def __init__(self, base: str) -> None:
        self.base = base
        self._discovery = begin_discover(base)
        self._config = begin_read_config(base)
        self._objects = begin_lookup_objects(base, HEAD_OBJECTS)

    def discovery(self) -> GitResult | None:
        started, self._discovery = self._discovery, None
        return None if started is None else started.wait()

    def settings(self, repo: Repository) -> tuple[SpawnedGit | None, SpawnedGit | None]:
        """The configuration's and the objects' git, when they were asked from `repo`'s
        top level (the caller waits for them)."""
        if repo.work_tree is None or \
                os.path.realpath(self.base) != os.path.realpath(repo.work_tree):
            return None, None
        config, objects, self._config, self._objects = self._config, self._objects, None, None
        return config, objects

    def close(self) -> None:
        for started in (self._discovery, self._config, self._objects):
            if started is not None:
                with suppress(Exception):
                    started.wait()
        self._discovery = self._config = self._objects = None


def proven_allowed(repo: Repository, request: HookRequest, options: HookOptions,
                   base: str, reads: AllowReads | None = None
                   ) -> tuple[bool, SessionState | None]:
    """True only when the full judge would allow every path and record nothing; with the
    session state read on the way (None: none was), which the judge then uses: a call
    reads its session once."""
    state: list[SessionState] = []
    allowed = _proven(repo, request, options, base, state, reads)
    return allowed, state[0] if state else None


def _proven(repo: Repository, request: HookRequest, options: HookOptions, base: str,
            state: list[SessionState], reads: AllowReads | None) -> bool:
    if options.record_all or request.action not in (Action.WRITE, Action.READ):
        return False
    asked = reads.settings(repo) if reads is not None else (None, None)
    pending = in_background(lambda: _read_settings(repo, *asked))
    relative = _plain_paths(repo, request.paths, base)
    if request.action == Action.WRITE and relative is not None:
        from gitcorrex.hooks.manifest_cache import base_manifest  # imports while git reads
    settings = pending()
    session = options.session or settings.session
    if relative is None:
        return False
    if session is not None:
        in_session = _session_manifest(repo, session, state)
        if in_session is False:
            return False
        if in_session is not None and request.action == Action.WRITE:
            return all(in_session.allows(path) for path in relative)
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


def _session_manifest(repo: Repository, session: str,
                      read: list[SessionState]) -> Manifest | Literal[False] | None:
    """The manifest of `session`'s active step when this call's actor started it; None
    between steps (the stage's manifest applies); False when nothing can be proven here
    (an id that names no session in the ledger, another runtime actor's step)."""
    from gitcorrex.errors import UsageError
    from gitcorrex.hooks.manifest_cache import compiled_manifest
    from gitcorrex.session.manifest import step_writes
    from gitcorrex.session.runtime_actor import current_actor
    from gitcorrex.session.state import session_state

    acting = in_background(lambda: current_actor(repo))  # git var, beside git ls-tree
    try:
        try:
            state = session_state(repo, session)
        except UsageError:
            return False
        read.append(state)
        declared = step_writes(state) if state.exists else None
        if not state.exists:
            return False
        if declared is None:
            return None
        started = state.active_actor
        if started is not None and acting() != started:
            return False
        return compiled_manifest(repo, *declared)
    finally:
        with suppress(Exception):
            acting()  # its git process does not outlive the call; the judge asks again


def _read_settings(repo: Repository, config: SpawnedGit | None = None,
                   objects_git: SpawnedGit | None = None) -> _Settings:
    """The configured session and stage, HEAD's tree and profile: two git processes, run
    side by side (or begun already: `AllowReads`)."""
    objects = in_background(lambda: lookup_objects(
        repo, HEAD_OBJECTS, asked=None if objects_git is None else objects_git.wait()))
    values = config_values(repo, (SESSION_CONFIG, STAGE_CONFIG),
                           asked=None if config is None else config.wait())
    head, profile = objects()
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
