"""`git correx explain [REV]`: every verification of a tree, its environment, and whether
`verify --reuse` would reuse it here.

"Here" is this process: the commands the tree's profile selects (`--stage`/`--expect` as
verify takes them), fingerprinted in this work tree with this environment
(runner/environment.py). Each observation's answer is the one rule `verify --reuse`, a
session's settlement and the Stop gate apply (verify/reuse.py `reuse_refusal`), so what
explain says is what they do. Nothing is recorded and nothing runs but the `--version`
probes the profile asks for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gitcorrex import ledger
from gitcorrex.git import Repository, resolve_tree
from gitcorrex.model.environment import EnvironmentPrint
from gitcorrex.model.event_kinds import payload_of
from gitcorrex.model.event_order import time_order
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.record import Record
from gitcorrex.model.verification import VerificationFields
from gitcorrex.profiles.profile_file import PROFILE_NAME, tree_profiles
from gitcorrex.runner.environment import fingerprint
from gitcorrex.verify.reuse import reuse_refusal
from gitcorrex.verify.selection import selected_commands_of


class ExplainedObservation(Record):
    """One verification of the tree: `reason` is None when `verify --reuse` would reuse it
    here, else why not."""

    event: RecordedEvent
    environment: EnvironmentPrint | None
    reusable: bool
    reason: str | None


class Explanation(Record):
    """`git correx explain --json`: the tree, the profile and expectation asked about, the
    environment here (None when the tree holds no profile: nothing is reused), and every
    verification of the tree, newest first."""

    tree: str
    source: str
    profile: str | None
    expectation: str | None
    environment: EnvironmentPrint | None
    observations: list[ExplainedObservation]
    problems: list[dict[str, Any]]


def explain_tree(repo: Repository, *, rev: str | None, state_key: str | None,
                 stage: str | None, expect: str | None,
                 env: Mapping[str, str]) -> Explanation:
    """REV's tree (or the workspace's `state_key` when REV is None), explained."""
    tree = resolve_tree(repo, rev) if rev is not None else state_key
    if tree is None:
        raise ValueError("explain_tree needs a revision or the workspace's state key")
    read = ledger.read_subject(repo, tree)
    observations = sorted((e for e in read.events if e.kind == VerificationFields.KIND),
                          key=time_order, reverse=True)
    profile = tree_profiles(repo, [tree])[tree]
    problems = [problem.as_dict() for problem in read.problems]
    if profile is None:
        why = f"the tree holds no {PROFILE_NAME}: no pass of it is reused"
        return Explanation(tree=tree, source=rev or "worktree", profile=None, expectation=None,
                           environment=None, observations=[_explained(e, why) for e in
                                                           observations], problems=problems)
    chosen = selected_commands_of(repo, profile, label=f"tree {tree[:12]}", stage=stage,
                                  expect=expect).selection
    here = fingerprint(repo, commands=chosen.commands, policy=chosen.environment,
                       run_dir=repo.root, env=env, state_key=tree)
    explained = [_explained(event, reuse_refusal(
        event, state_key=tree, commands=chosen.commands, profile=profile, environment=here))
        for event in observations]
    return Explanation(tree=tree, source=rev or "worktree", profile=profile,
                       expectation=chosen.expectation,
                       environment=EnvironmentPrint.model_validate(here),
                       observations=explained, problems=problems)


def _explained(event: RecordedEvent, reason: str | None) -> ExplainedObservation:
    payload = payload_of(event)
    environment = payload.environment if isinstance(payload, VerificationFields) else None
    return ExplainedObservation(event=event, environment=environment,
                                reusable=reason is None, reason=reason)
