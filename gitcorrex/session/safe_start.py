"""What a step may start on: a verified state, reached from the last settled one only by
changes the step declares (seed 000's known-good baseline, seed 003 INV-4's safe state).

- **Only a verified state starts a step.** The current state key must carry a passing
  observation of a build expectation under the session's profile: the lock's, a step's
  settlement, or `verify` in the session. A docs or no-writes step records its own checks
  (`step_checks_observed`), never a build claim, so the step after it asks for a `verify`
  first. The lock's `--baseline-unverified` decision stands in only for the first step:
  on the lock state, before any step is verified.
- **Safe completed state.** Every path changed between the last settled state (the lock,
  the last verified step, or an operator's `session adopt`) and the current one must lie
  inside the starting step's `writes`: those changes then count as its writes (its
  `step_started.baseline` is the settled state, where its write evidence begins). Anything
  else — an edit no step declared and no settlement judged — is refused, naming every path.
  The profile is not among them: it is judged against the locked blob (bound_profile.py),
  and only a re-plan adopts another.
"""

from __future__ import annotations

from gitcorrex.git import Repository, changed_paths
from gitcorrex.model.plan import PlanStep
from gitcorrex.model.session_state import SessionState, StepStatus
from gitcorrex.model.write_manifest import Manifest
from gitcorrex.profiles.profile_file import PROFILE_NAME
from gitcorrex.session.transition import refuse


def changes_since_settled(repo: Repository, state: SessionState, state_key: str) -> list[str]:
    """Every path changed between the last settled state and `state_key` (the profile left
    out: judged on its own); empty when there is no settled state yet."""
    settled = state.settled
    if settled is None or settled == state_key:
        return []
    return [path for path in changed_paths(repo, settled, state_key) if path != PROFILE_NAME]


def check_inside_writes(state: SessionState, step: PlanStep, changed: list[str]) -> list[str]:
    """The changed paths, when all lie inside the step's writes (they count as its writes);
    refused (exit 1) naming every one that does not, and the two ways on."""
    writes = Manifest(tuple(step.writes), f"step {step.id!r}")
    outside = [path for path in changed if not step.writes or not writes.allows(path)]
    if outside:
        settled = str(state.settled)[:12]
        raise refuse(
            f"the workspace changed since the last settled state {settled} outside the writes "
            f"of step {step.id} [{', '.join(step.writes)}]: {', '.join(outside)} (no step "
            "declared these changes and no settlement judged them)",
            hint=f"revert them (`git diff {state.settled}` shows the tracked ones), or have "
                 "an operator adopt them: "
                 f"`git correx session adopt --session {state.session} --reason TEXT`")
    return changed


def check_verified_state(state: SessionState, state_key: str, *, verify: str) -> None:
    """Refuse (exit 1) unless `state_key` carries a passing build observation under the
    session's profile, or is the lock state of a `--baseline-unverified` lock before any
    step is verified; `verify` is the command the hint names."""
    if state.is_verified(state_key) or _unverified_lock_admits(state, state_key):
        return
    raise refuse(
        f"the workspace state {state_key[:12]} carries no passing observation of a build "
        f"expectation under session {state.session}'s profile: {_story(state, state_key)}",
        hint=f"run `{verify}` in the session on this state; start the step when it passes")


def _unverified_lock_admits(state: SessionState, state_key: str) -> bool:
    """The operator's recorded `--baseline-unverified` decision: the first step only."""
    baseline = state.baseline
    return (baseline is not None and baseline.source == "lock_unverified"
            and baseline.state_key == state_key
            and not any(s.status is StepStatus.VERIFIED for s in state.steps))


def _story(state: SessionState, state_key: str) -> str:
    """What the state is, in words the refusal can be acted on."""
    baseline = state.baseline
    if baseline is not None and baseline.source == "lock_unverified":
        first = "the plan was locked on a state which nothing verified (--baseline-unverified)"
        if baseline.state_key != state_key:
            return f"{first}, and the workspace changed since the lock"
        return f"{first}, which admits the first step only"
    if state.settled == state_key:
        return ("it is the state the last step settled on, and that step made no build "
                "claim (a docs or no-writes step records its own checks only)")
    return "the workspace changed since the last verification"
