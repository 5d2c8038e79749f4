"""Before an agent ends its turn: is the changed workspace known-good?

The known-good invariant — a passing observation whose state key is the current state key —
is exactly what "done" should mean (a pass of the stage's commands under the state tree's
own profile: model/observed_pass.py). When the profile opts in (`verify_before_stop`, in
`[defaults]` or per stage, read from HEAD), a changed workspace (against the session's
baseline, else HEAD's tree) is judged ledger first, then by running:

1. a pass already recorded on the current state key lets the turn end at once, whoever
   recorded it (the one question `verify --reuse` asks: verify/reuse.py);
2. otherwise the hook runs an expectation through the one verify path and records it: the
   full one (the stage's build expectation) when the agent's final message claims
   completion (claims.py) or the host sends no message, else the cheap one
   (`stop_expectation`, per stage or in `[defaults]`; unset, the full one). A pass of the
   full expectation always satisfies a cheap stop; a pass of the cheap one never satisfies
   a claim. The run's pass is then looked up exactly as in 1, so a run under another
   profile's commands does not count;
3. a failing or unavailable run keeps the agent working, with the run's summary and the end
   of its failing output.

The turn may end when nothing changed, when the expectation runs nothing, and whenever the
agent is already continuing because of a Stop hook (`stop_hook_active`): a Stop hook must
never loop. Blocks are capped per (conversation, state) (stop_blocks.py).

Whatever the profile opts into, a changed workspace whose tests are weaker than its
baseline's (integrity/: a test removed, fewer assertions, a skip added, a check told to
pass) keeps the agent working, naming each file, test and weakening, until the tests are
restored or a person accepts the findings on that state (`git correx accept-tests`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gitcorrex.agents.hook_call import call_base, correx_session
from gitcorrex.agents.request import ALLOW, HookOptions, HookRequest, Verdict
from gitcorrex.git import Repository, discover

if TYPE_CHECKING:
    from gitcorrex.agents.stop_run import StopNeed
    from gitcorrex.model.profile import Profile
    from gitcorrex.verify.outcome import VerifyOutcome

PROFILE_SOURCE = ".correx.toml at HEAD"


def check_stop(request: HookRequest, options: HookOptions, *, default_cwd: Path,
               clock: Callable[[], datetime]) -> Verdict:
    """ALLOW, or a block that tells the agent to restore its weakened tests, or to fix what
    the Stop gate's run found, before it says it is done (capped: stop_blocks.py)."""
    if request.stop_hook_active:
        return ALLOW
    repo = discover(call_base(request, default=default_cwd))
    from gitcorrex.git import compute_state, head_tree

    baseline = _baseline(repo, options) or head_tree(repo)
    state_key = compute_state(repo).state_key
    if state_key == baseline:
        return ALLOW
    weakened = weakened_tests(repo, baseline=baseline, state=state_key, clock=clock)
    verdict = Verdict(True, weakened) if weakened else \
        _verified(repo, request, options, state_key, clock)
    if not verdict.blocked:
        return verdict
    from gitcorrex.agents.stop_blocks import capped_block

    return capped_block(repo, request, state_key, verdict)


def _verified(repo: Repository, request: HookRequest, options: HookOptions, state_key: str,
              clock: Callable[[], datetime]) -> Verdict:
    """ALLOW when the profile does not opt in, or the state carries (or now earns) a pass
    of what this stop needs; else the block naming what failed."""
    from gitcorrex.git import config_value
    from gitcorrex.hooks import STAGE_CONFIG

    stage = options.stage or config_value(repo, STAGE_CONFIG) or None
    found = _profile_at_head(repo)
    if found is None or not opted_in(found[1], stage):
        return ALLOW
    from gitcorrex.agents.stop_run import StopNeed, has_pass, not_taken, run_expectation

    need = StopNeed.of(found[1], stage, claims_done(request.last_message))
    if not need.wanted.commands or has_pass(repo, state_key, need):
        return ALLOW
    refused = not_taken(repo, state_key, need)  # said before the run adds its own pass
    outcome = run_expectation(repo, need, clock)
    if has_pass(repo, state_key, need):
        return ALLOW
    return Verdict(True, _reason(state_key, need, outcome) +
                   (f"git correx: {refused}\n" if refused else ""))


def claims_done(message: str | None) -> bool:
    """A stop needs the full expectation when the final message claims completion, and
    when the host sends no message at all (nothing to read is never a "no")."""
    if message is None:
        return True
    from gitcorrex.agents.claims import is_completion_claim

    return is_completion_claim(message)


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


def _reason(state_key: str, need: StopNeed, outcome: VerifyOutcome) -> str:
    command = "git correx verify" + (f" --stage {need.stage}" if need.stage else "")
    if need.wanted.expectation != need.full.expectation:
        command += f" --expect {need.wanted.expectation}"
    why = ("your last message claims the work is done" if need.claimed
           else "the cheap check of every stop")
    lines = [f"git correx: the workspace changed and its state {state_key[:12]} has no passing "
             f"observation of {need.wanted.expectation!r} ({why}); the Stop gate ran it:",
             f"  {outcome.summary.strip()}"]
    if outcome.result is not None and outcome.result.value == "pass":
        lines.append(f"  but that run's commands are not those of {PROFILE_SOURCE} (the work "
                     "tree's profile changed them): restore the profile, or have a person "
                     "commit the change")
    lines += [f"  | {line}" for line in _tail(outcome.failing_output)]
    lines.append(f"  fix what fails (`{command}` runs it again), and finish only when it "
                 "passes (the pass is recorded on that exact state)")
    return "\n".join(lines) + "\n"


def _tail(output: bytes | None, lines: int = 30, limit: int = 4000) -> list[str]:
    """The end of a failing run's output, bounded for the agent's context."""
    if not output:
        return []
    from gitcorrex.model.printable import printable_lines

    text = printable_lines(output[-limit:].decode("utf-8", "replace"))
    return text.rstrip("\n").split("\n")[-lines:]
