"""After an agent's shell call: did the workspace change anywhere the manifest forbids?

A shell command's writes cannot be known before it runs (`sed -i`, `rm -rf`, a generator),
so the check runs after it: one state scan (the state key), one tree diff against the
baseline that applies — the active step's baseline inside a session, else HEAD's tree — and
every changed path judged against the manifest in force (the step's `writes`, else the
stage's, read from HEAD) — except correx's own hook files, exactly as installed
(agents/own_hook_files.py). Changes inside the manifest pass silently; the rest are recorded as
one `tool_call_assessed` (origin `post-tool`) and reported to the agent. With no stage and no
session selected nothing restricts writes, and nothing is scanned. Inside a step, a shell
call by a runtime actor other than the one that started the step is blocked, naming both
(session/runtime_actor.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.agents.hook_call import agent_call, call_base, correx_session
from gitcorrex.agents.request import ALLOW, HookOptions, HookRequest, Verdict
from gitcorrex.git import Repository, discover
from gitcorrex.model.write_manifest import Manifest

if TYPE_CHECKING:
    from datetime import datetime

    from gitcorrex.manifest.check import Violation
    from gitcorrex.model.session_state import SessionState

ORIGIN = "post-tool"


@dataclass(frozen=True)
class _Scope:
    manifest: Manifest
    baseline: str | None
    session: str | None
    stage: str | None


def check_workspace(request: HookRequest, options: HookOptions, *, default_cwd: Path,
                    clock: Callable[[], datetime]) -> Verdict:
    """ALLOW when every path changed since the baseline is inside the manifest."""
    repo = discover(call_base(request, default=default_cwd))
    state = correx_session(repo, options)
    refused = _foreign_actor(repo, request, state)
    if refused is not None:
        return refused
    scope = _scope(repo, options, state)
    if scope is None or scope.manifest.unrestricted:
        return ALLOW
    from gitcorrex.git import compute_state, tree_changes
    from gitcorrex.manifest.check import check_changes

    state_key = compute_state(repo).state_key
    if state_key == scope.baseline:
        return ALLOW
    from gitcorrex.agents.own_hook_files import without_own_hook_files

    changes = without_own_hook_files(repo, tree_changes(repo, scope.baseline, state_key))
    violations = check_changes(changes, scope.manifest)
    if not violations:
        return ALLOW
    event = _record(repo, request, scope, state_key, violations, clock)
    from gitcorrex.agents.reasons import shell_reason

    return Verdict(True, shell_reason(request, violations, scope.baseline or "the empty tree",
                                      event))


def _foreign_actor(repo: Repository, request: HookRequest,
                   state: SessionState | None) -> Verdict | None:
    """A shell call in a step another runtime actor started (its writes cannot be known
    before it ran, so every one counts): the block naming both; None otherwise."""
    if state is None or state.active_actor is None:
        return None
    from gitcorrex.ledger.provenance import current_provenance
    from gitcorrex.session.runtime_actor import ForeignActorError, refuse_foreign_actor

    try:
        refuse_foreign_actor(state, current_provenance(repo), "a shell call")
    except ForeignActorError as refused:
        from gitcorrex.agents.reasons import foreign_actor_reason

        return Verdict(True, foreign_actor_reason(request, refused))
    return None


def _scope(repo: Repository, options: HookOptions,
           state: SessionState | None) -> _Scope | None:
    """The manifest and baseline in force; None when neither a session nor a stage is."""
    from gitcorrex.git import config_value, lookup_objects
    from gitcorrex.hooks import PROFILE_NAME, STAGE_CONFIG

    session = state.session if state is not None else None
    stage = options.stage or config_value(repo, STAGE_CONFIG) or None
    head, profile = lookup_objects(repo, ["HEAD^{tree}", f"HEAD^{{tree}}:{PROFILE_NAME}"])
    head_tree = head.oid if head is not None else None
    if state is not None:
        from gitcorrex.session.manifest import step_manifest

        manifest = step_manifest(state)
        if manifest is not None:
            baseline = state.baseline
            return _Scope(manifest, baseline.state_key if baseline else head_tree, session,
                          stage)
    if stage is None:
        return None
    from gitcorrex.hooks.manifest_cache import base_manifest

    manifest = base_manifest(repo, base_tree=head_tree, profile=profile, base_label="HEAD",
                             stage=stage)
    return _Scope(manifest, head_tree, session, stage)


def _record(repo: Repository, request: HookRequest, scope: _Scope, state_key: str,
            violations: Sequence[Violation], clock: Callable[[], datetime]) -> str:
    from gitcorrex.ledger.provenance import current_provenance
    from gitcorrex.manifest.assessment_record import record_assessment
    from gitcorrex.model.assessment import PathVerdict, Rule
    from gitcorrex.model.repo_paths import printable_path

    verdicts = [PathVerdict(path=printable_path(v.path), change=v.change, rule=Rule(v.rule),
                            detail=v.detail or f"{v.source}: [{', '.join(v.patterns)}]")
                for v in violations]
    event = record_assessment(
        repo, tree=state_key, origin=ORIGIN, action="write", manifest=scope.manifest,
        verdicts=verdicts, session=scope.session, stage=scope.stage, commit=None,
        clock=clock, provenance=current_provenance(repo), agent=agent_call(request))
    return event.id
