"""Before an agent ends its turn: is the changed workspace known-good?

The known-good invariant — a passing observation whose state key is the current state key —
is exactly what "done" should mean (a pass of the stage's commands under the state tree's
own profile: model/observed_pass.py). When the profile opts in (`verify_before_stop`, in
`[defaults]` or per stage, read from HEAD), a Stop hook keeps the agent working while the
workspace differs from its baseline (the session's, else HEAD's tree) and the current state
key has no pass of the stage's expectation, telling it to run `git correx verify` and fix what
fails. It lets the turn end when nothing changed, when the expectation runs nothing, and
whenever the agent is already continuing because of a Stop hook (`stop_hook_active`): a
Stop hook must never loop.

Whatever the profile opts into, a changed workspace whose tests are weaker than its
baseline's (integrity/: a test removed, fewer assertions, a skip added, a check told to
pass) keeps the agent working, naming each file, test and weakening, until the tests are
restored or a person accepts the findings on that state (`git correx accept-tests`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gitcorrex.agents.hook_call import call_base, correx_session
from gitcorrex.agents.request import ALLOW, HookOptions, HookRequest, Verdict
from gitcorrex.git import Repository, discover

if TYPE_CHECKING:
    from gitcorrex.model.profile import Profile

PROFILE_SOURCE = ".correx.toml at HEAD"


def check_stop(request: HookRequest, options: HookOptions, *, default_cwd: Path,
               clock: Callable[[], datetime]) -> Verdict:
    """ALLOW, or a block that tells the agent to restore its weakened tests, or to verify,
    before it says it is done."""
    if request.stop_hook_active:
        return ALLOW
    repo = discover(call_base(request, default=default_cwd))
    from gitcorrex.git import compute_state, config_value, head_tree
    from gitcorrex.hooks import STAGE_CONFIG

    baseline = _baseline(repo, options) or head_tree(repo)
    state_key = compute_state(repo).state_key
    if state_key == baseline:
        return ALLOW
    weakened = weakened_tests(repo, baseline=baseline, state=state_key, clock=clock)
    if weakened:
        return Verdict(True, weakened)
    stage = options.stage or config_value(repo, STAGE_CONFIG) or None
    found = _profile_at_head(repo)
    if found is None or not opted_in(found[1], stage):
        return ALLOW
    profile = found[1]
    from gitcorrex import ledger
    from gitcorrex.profiles.selection import select_expectation
    from gitcorrex.verify.reuse import find_reusable_pass

    selection = select_expectation(profile, stage=stage, expect=None)
    if not selection.commands:
        return ALLOW
    from gitcorrex.profiles.profile_file import tree_profiles
    from gitcorrex.runner.environment import fingerprint
    from gitcorrex.verify.reuse import nearest_refusal

    events = ledger.read_subject(repo, state_key).events
    here = fingerprint(repo, commands=selection.commands, policy=selection.environment,
                       run_dir=repo.root, env=os.environ, state_key=state_key)
    wanted: dict[str, Any] = dict(state_key=state_key, commands=selection.commands,
                                  environment=here,
                                  profile=tree_profiles(repo, [state_key])[state_key])
    if find_reusable_pass(events, **wanted):
        return ALLOW
    refused = nearest_refusal(events, **wanted)
    return Verdict(True, _reason(state_key, selection.expectation, stage) +
                   (f"git correx: {refused}\n" if refused else ""))


def weakened_tests(repo: Repository, *, baseline: str | None, state: str,
                   clock: Callable[[], datetime]) -> str:
    """The open test weakenings of `state` against `baseline`, each recorded on the state
    tree, as the reason to keep working; "" when the tests held (or nothing to compare)."""
    if baseline is None:
        return ""
    from gitcorrex.integrity.gate import judge_integrity
    from gitcorrex.ledger.provenance import current_provenance

    integrity = judge_integrity(repo, baseline=baseline, state=state,
                                record=lambda: current_provenance(repo), now=clock())
    return integrity.describe()


def opted_in(profile: Profile, stage: str | None) -> bool:
    """The stage's `verify_before_stop`, else the profile's default."""
    policy = profile.stages.get(stage) if stage else None
    if policy is not None and policy.verify_before_stop is not None:
        return policy.verify_before_stop
    return profile.defaults.verify_before_stop


def _profile_at_head(repo: Repository) -> tuple[str, Profile] | None:
    from gitcorrex.git import lookup_objects, read_blob
    from gitcorrex.hooks import PROFILE_NAME
    from gitcorrex.profiles.load import parse_profile

    head, blob = lookup_objects(repo, ["HEAD^{tree}", f"HEAD^{{tree}}:{PROFILE_NAME}"])
    if head is None or blob is None or blob.kind != "blob":
        return None
    return head.oid, parse_profile(read_blob(repo, blob.oid), source=PROFILE_SOURCE)


def _baseline(repo: Repository, options: HookOptions) -> str | None:
    state = correx_session(repo, options)
    if state is None:
        return None
    baseline = state.baseline
    return baseline.state_key if baseline is not None else None


def _reason(state_key: str, expectation: str, stage: str | None) -> str:
    command = "git correx verify" + (f" --stage {stage}" if stage else "")
    return (f"git correx: the workspace changed and its state {state_key[:12]} has no passing "
            f"observation of {expectation!r}: run `{command}`, fix what fails, and finish "
            "only when it passes (the pass is recorded on that exact state)\n")
