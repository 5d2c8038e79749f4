"""What one Stop needs (the full expectation or the cheap one), whether the ledger already
holds it, and running it when it does not.

"Cheap" is the operator's word, not ours: `stop_expectation` (a stage's, else `[defaults]`)
names the expectation a Stop without a completion claim runs — a lint, a type check, the
fast tests. Unset, every Stop runs the full one: the stage's `build_expectation`, else
`defaults.expectation` (profiles/selection.py). The run goes through the one verify path
(`observe_workspace`, outside any session: a Stop never settles a session's step) and is
recorded like any `git correx verify`, so the next Stop — or `verify --reuse`, or a
reviewer — finds it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from gitcorrex.git import Repository
from gitcorrex.model.profile import Profile
from gitcorrex.profiles.selection import Selection, select_expectation
from gitcorrex.verify.outcome import VerifyOutcome

if TYPE_CHECKING:
    from gitcorrex.ledger.read import LedgerRead


@dataclass(frozen=True)
class StopNeed:
    """`wanted`: what this stop runs; `full`: the stage's build expectation, whose pass
    satisfies any stop; `claimed`: whether the final message claimed completion."""

    stage: str | None
    claimed: bool
    full: Selection
    wanted: Selection

    @classmethod
    def of(cls, profile: Profile, stage: str | None, claimed: bool) -> StopNeed:
        full = select_expectation(profile, stage=stage, expect=None)
        cheap = stop_expectation(profile, stage)
        wanted = full if claimed or cheap is None or cheap == full.expectation else \
            select_expectation(profile, stage=stage, expect=cheap)
        return cls(stage, claimed, full, wanted)

    def accepted(self) -> list[Selection]:
        """The expectations whose pass lets this stop through."""
        return [self.full] if self.wanted is self.full else [self.full, self.wanted]


def stop_expectation(profile: Profile, stage: str | None) -> str | None:
    """The stage's `stop_expectation`, else the profile's default; None: none is set."""
    policy = profile.stages.get(stage) if stage else None
    if policy is not None and policy.stop_expectation is not None:
        return policy.stop_expectation
    return profile.defaults.stop_expectation


def has_pass(repo: Repository, state_key: str, need: StopNeed) -> bool:
    """Whether `state_key` carries a pass, under its own profile, of an accepted
    expectation's exact commands, recorded in this environment (the hook's own, as the
    agent's commands would see it), written in this clone or signed by an allowed signer
    (the question `verify --reuse` asks)."""
    from gitcorrex.verify.reuse import find_reusable_pass
    from gitcorrex.verify.reuse_trust import ReuseTrust

    read, asked = _asked(repo, state_key, need)
    trust = ReuseTrust(repo, tip=read.tip, subject=state_key)  # this clone's or signed
    return any(find_reusable_pass(read.events, trust=trust, **wanted) is not None
               for wanted in asked)


def not_taken(repo: Repository, state_key: str, need: StopNeed) -> str:
    """Why the newest pass of what this stop runs was not taken from the ledger (another
    environment, none recorded: verify/reuse.py `nearest_refusal`); "" when there is none."""
    from gitcorrex.verify.reuse import nearest_refusal

    read, asked = _asked(repo, state_key, need)
    return nearest_refusal(read.events, **asked[-1])


def _asked(repo: Repository, state_key: str,
           need: StopNeed) -> tuple[LedgerRead, list[dict[str, Any]]]:
    """The state's events, and what each accepted expectation asks of a pass (`wanted`
    last): its commands, the tree's profile, this environment's fingerprint."""
    from gitcorrex import ledger
    from gitcorrex.profiles.profile_file import tree_profiles
    from gitcorrex.runner.environment import fingerprint

    read = ledger.read_subject(repo, state_key)
    profile = tree_profiles(repo, [state_key])[state_key]
    asked = [dict(state_key=state_key, commands=selection.commands, profile=profile,
                  environment=fingerprint(repo, commands=selection.commands,
                                          policy=selection.environment, run_dir=repo.root,
                                          env=os.environ, state_key=state_key))
             for selection in need.accepted()]
    return read, asked


def run_expectation(repo: Repository, need: StopNeed,
                    clock: Callable[[], datetime]) -> VerifyOutcome:
    """Run and record `need.wanted` on the workspace, as `git correx verify --stage S
    --expect E` would outside a session."""
    from gitcorrex.ledger.provenance import current_provenance
    from gitcorrex.verify.observe import observe_workspace
    from gitcorrex.verify.outcome import SilentProgress
    from gitcorrex.verify.request import VerifyContext, VerifyRequest

    request = VerifyRequest(stage=need.stage, expect=need.wanted.expectation)
    context = VerifyContext(os.environ, clock, current_provenance(repo), SilentProgress())
    return observe_workspace(repo, request, context)
