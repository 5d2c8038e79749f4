"""`git correx verify`: observe the configured commands on the current state key, record it.

The command list is deterministic (stage → expectation → profile); nothing here accepts a
shell command. One observation is recorded per run; a command that changes the workspace
can never yield a pass, because the result would describe a state nobody can name.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.git.repository import Repository, discover_with_git
from gitcorrex.git.state import StateProbe
from gitcorrex.git.temporary_worktree import temporary_worktree
from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.verification import Reason, Result
from gitcorrex.profiles.load import LoadedProfile, load_profile
from gitcorrex.profiles.selection import Selection, select_expectation
from gitcorrex.verify.context import VerifyContext
from gitcorrex.verify.observation import (
    Observation,
    changed_since_baseline,
    record_observation,
    record_reuse,
)
from gitcorrex.verify.outcome import VerifyOutcome, VerifyProgress
from gitcorrex.verify.reuse import find_reusable_pass
from gitcorrex.verify.run_commands import CommandsRun, run_expectation, run_setup
from gitcorrex.verify.selection_cache import remember_selection


@dataclass(frozen=True)
class VerifyRequest:
    """The user's choices; everything else comes from the profile.

    `step` and `selection` are set only by a session's settlement (session/settlement.py):
    the step the observation binds, and the commands it chose from the profile (the
    step's checks and its stage's expectation), which then win over `stage`/`expect`.
    """

    stage: str | None = None
    expect: str | None = None
    session: str | None = None
    reuse: bool = False
    isolated: bool = False
    step: str | None = None
    selection: Selection | None = None


@dataclass(frozen=True)
class _Run:
    """What every step of one verification needs besides the state key."""

    obs: Observation
    request: VerifyRequest
    env: Mapping[str, str]
    progress: VerifyProgress
    output_cap: int


def observe_workspace(repo: Repository, request: VerifyRequest, context: VerifyContext, *,
                      probe: StateProbe | None = None) -> VerifyOutcome:
    """Run the selected expectation against the workspace's state key and record it.

    Everything that can refuse the request (profile, stage, expectation, session id) is
    checked before any command runs, so a refusal never costs a test run. `probe` (owned
    by the caller) may already be measuring the workspace; see `StateProbe.begin`.
    """
    loaded = load_profile(repo.root)
    selection = request.selection or _selected(repo, loaded, request)
    if request.session is not None:
        ledger.check_session_id(request.session)
    obs = Observation(
        repo=repo,
        request_session=request.session,
        step=request.step,
        selection=selection,
        profile_oid=loaded.blob_oid,
        head_tree=None,  # filled in from the probe's first measurement
        clock=context.clock,
        provenance=context.provenance,
        isolated=request.isolated,
    )
    run = _Run(obs, request, context.env, context.progress, loaded.profile.defaults.output_cap)
    if probe is not None:
        return _verify_state(run, probe)
    with StateProbe(repo) as own_probe:
        return _verify_state(run, own_probe)


def _selected(repo: Repository, loaded: LoadedProfile, request: VerifyRequest) -> Selection:
    """The request's expectation, remembered for the plain path (`selection_cache.py`)."""
    selection = select_expectation(loaded.profile, stage=request.stage, expect=request.expect)
    remember_selection(repo, loaded.blob_oid, request.stage, request.expect,
                       selection.model_dump(mode="json"), loaded.profile.defaults.output_cap)
    return selection


def _verify_state(run: _Run, probe: StateProbe) -> VerifyOutcome:
    """From the state key on: nothing to claim, a reusable pass, or a run of the commands."""
    state = probe.measure()
    before = state.state_key
    run = replace(run, obs=replace(run.obs, head_tree=state.head_tree))
    obs, request, selection = run.obs, run.request, run.obs.selection
    if not selection.commands:
        return VerifyOutcome(
            selection.expectation,
            before,
            None,
            None,
            None,
            f"expectation {selection.expectation!r} has no commands: "
            "nothing verified, nothing recorded (no build claim)",
        )
    reused = _reuse(obs, before, None) if request.reuse else None
    if reused is not None:
        return reused
    with _workspace(obs.repo, before, request.isolated, probe) as (run_dir, run_probe):
        return _verify_in(run, run_dir, run_probe, before)


def _verify_in(run: _Run, run_dir: Path, run_probe: StateProbe, unset: str) -> VerifyOutcome:
    """Setup (if any) then the commands, both in `run_dir`: setup prepares what is tested.

    Setup is recorded on the state it ran on; the commands verify the state it left.
    """
    obs = run.obs
    if obs.selection.setup is None:
        return _run_commands(run, run_dir, run_probe, unset, None)
    setup = run_setup(
        run_dir, obs.selection, env=run.env, progress=run.progress, output_cap=run.output_cap
    )
    setup_event = obs.record_setup(unset, setup)
    if not setup.passed:
        not_run = CommandsRun.not_run(obs.selection, Reason.SETUP_FAILED, None)
        recorded = record_observation(obs, unset, unset, not_run, setup_event)
        return recorded._replace(failing_output=setup.outcome.output)
    before = run_probe.measure().state_key
    moved = run.request.reuse and before != unset
    reused = _reuse(obs, before, setup_event) if moved else None
    return reused or _run_commands(run, run_dir, run_probe, before, setup_event)


def _run_commands(
    run: _Run, run_dir: Path, run_probe: StateProbe, before: str,
    setup_event: RecordedEvent | None,
) -> VerifyOutcome:
    """Run the expectation, then key the workspace it ran in again.

    While git rescans the work tree, this thread computes what changed since the
    baseline (a diff of two trees known already: ~25 ms on 50,000 files); pygit2 holds
    the interpreter lock, so it must not overlap the commands, only the git process.
    """
    obs = run.obs
    commands = run_expectation(
        run_dir,
        obs.selection,
        env={**run.env, "CORREX_STATE_KEY": before},
        progress=run.progress,
        output_cap=run.output_cap,
    )
    run_probe.begin()
    try:
        changed = changed_since_baseline(obs, before)
    finally:
        after = run_probe.measure().state_key
    return record_observation(obs, before, after, commands, setup_event, changed)


def _reuse(
    obs: Observation, state_key: str, setup_event: RecordedEvent | None
) -> VerifyOutcome | None:
    """Record a citation of an earlier pass of this tree and commands; None when there is none.

    Checked before setup runs too: `--reuse` promises that nothing runs when a pass exists.
    """
    reusable = find_reusable_pass(
        ledger.read_subject(obs.repo, state_key).events,
        state_key=state_key,
        commands=obs.selection.commands,
    )
    if reusable is None:
        return None
    return record_reuse(obs, state_key, reusable, setup_event)


@contextmanager
def _workspace(repo: Repository, state_key: str, isolated: bool,
               probe: StateProbe) -> Iterator[tuple[Path, StateProbe]]:
    """Where commands run, and the probe that keys it: the work tree itself, or a
    throwaway worktree of exactly the state tree."""
    if not isolated:
        yield repo.root, probe
        return
    with temporary_worktree(repo, state_key) as path, \
            StateProbe(discover_with_git(path)) as isolated_probe:
        yield path, isolated_probe


__all__ = ["Result", "Selection", "VerifyRequest", "observe_workspace"]
