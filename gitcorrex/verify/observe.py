"""`git correx verify`: observe the configured commands on the current state key, record it.

The command list is deterministic (stage → expectation → profile); nothing here accepts a
shell command. The profile is the one the verified state holds (verify/profile_binding.py;
`--isolated` reads it from the state tree), or REV's with `--profile-from REV`, recorded
as such. One observation is recorded per run; a command that changes the workspace
can never yield a pass, because the result would describe a state nobody can name.

One path for every form: what it needs is loaded when a request needs it — the profile's
models only when its selection is not stored yet (`verify/selection.py`), the event models
only for `--reuse` or a session, libgit2 never unless something opened it — so a plain
`verify` costs its two scans of the work tree, its commands and a few git processes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from gitcorrex.errors import UsageError
from gitcorrex.git import (
    Repository,
    StateProbe,
    WorkspaceState,
    discover,
    environment_dirs_added,
)
from gitcorrex.model.session_object import check_session_id
from gitcorrex.model.verdicts import Reason
from gitcorrex.verify.observation import (
    Observation,
    prepare_observation,
    record_observation,
)
from gitcorrex.verify.outcome import VerifyOutcome
from gitcorrex.verify.profile_binding import bind_to_state
from gitcorrex.verify.request import VerifyContext, VerifyRequest
from gitcorrex.verify.run_commands import CommandsRun, run_expectation, run_setup
from gitcorrex.verify.selection import ProfileSelection, selected_commands, selected_commands_at

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitcorrex.verify.reuse import Reuse

Changes = Callable[[], tuple[list[str], int]]


def observe_workspace(repo: Repository, request: VerifyRequest, context: VerifyContext, *,
                      probe: StateProbe | None = None) -> VerifyOutcome:
    """Run the selected expectation against the workspace's state key and record it.

    Everything that can refuse the request (profile, stage, expectation, session id, a
    profile the state does not hold) is checked before any command runs, so a refusal
    never costs a test run. `probe` (owned by the caller) may already be measuring the
    workspace; see `StateProbe.begin`.
    """
    chosen = request.selection or _chosen(repo, request)
    if request.session is not None:
        check_session_id(request.session)
    if probe is not None:
        return _verify_state(repo, chosen, request, context, probe)
    with StateProbe(repo) as own_probe:
        return _verify_state(repo, chosen, request, context, own_probe)


def _chosen(repo: Repository, request: VerifyRequest) -> ProfileSelection | None:
    """The work tree's profile's selection; REV's with `--profile-from`; None with
    `--isolated`, which runs the profile the state tree holds (known once measured)."""
    stage, expect = request.stage, request.expect
    if request.profile_from is not None:
        from gitcorrex.git import resolve_commit, tree_of  # git/history.py: only for REV

        rev = request.profile_from
        commit = resolve_commit(repo, rev)
        if commit is None:
            raise UsageError(f"--profile-from {rev!r} names no commit",
                             hint="give a branch, tag or commit id (e.g. the base branch)")
        chosen = selected_commands_at(repo, tree_of(repo, commit), stage=stage, expect=expect,
                                      label=f"{rev} ({commit[:12]})")
        return chosen._replace(profile_from=commit)
    if request.isolated:
        return None
    return selected_commands(repo, stage=stage, expect=expect)


def _bound(repo: Repository, chosen: ProfileSelection | None, request: VerifyRequest,
           state_key: str) -> ProfileSelection:
    """What runs on `state_key`: the profile the state holds (verify/profile_binding.py),
    or REV's, chosen on purpose and recorded as such."""
    if chosen is None:
        return selected_commands_at(repo, state_key, stage=request.stage,
                                    expect=request.expect,
                                    label=f"the workspace state {state_key[:12]}")
    if chosen.profile_from is not None:
        return chosen
    return bind_to_state(repo, chosen, state_key)


def _verify_state(repo: Repository, chosen: ProfileSelection | None, request: VerifyRequest,
                  context: VerifyContext, probe: StateProbe) -> VerifyOutcome:
    """Measure the workspace, observe it, and name what in its key is no project's."""
    state = probe.measure()
    outcome = _observe_state(repo, chosen, request, context, probe, state)
    return outcome._replace(warnings=environment_warnings(repo, state.head_tree,
                                                          state.state_key))


def _observe_state(repo: Repository, chosen: ProfileSelection | None, request: VerifyRequest,
                   context: VerifyContext, probe: StateProbe,
                   state: WorkspaceState) -> VerifyOutcome:
    """From the state key on: nothing to claim, a reusable pass, or a run of the commands."""
    before = state.state_key
    obs = Observation(repo, session=request.session, step=request.step,
                      profile=_bound(repo, chosen, request, before), clock=context.clock,
                      provenance=context.provenance, isolated=request.isolated,
                      checks_only=request.checks_only)
    obs.head_tree = state.head_tree
    selection = obs.profile.selection
    if not selection.commands:
        return VerifyOutcome(selection.expectation, before, None, None, None,
                             f"expectation {selection.expectation!r} has no commands: "
                             "nothing verified, nothing recorded (no build claim)")
    asked = request.reuse and not request.checks_only
    reuse = _reuse(obs, context, before, None) if asked else None
    if reuse is not None and reuse.outcome is not None:
        return reuse.outcome
    # what the observation will name, asked while the commands run (setup moves the key)
    changes = obs.begin_changes(before) if selection.setup is None else None
    try:
        with _workspace(obs.repo, before, request.isolated, probe) as (run_dir, run_probe):
            return _declined(_verify_in(obs, request, context, run_dir, run_probe, before,
                                        changes), reuse)
    finally:
        if changes is not None:
            with suppress(Exception):  # asked for already, or the run stopped: its git
                changes()              # process must not outlive the verify


def _verify_in(obs: Observation, request: VerifyRequest, context: VerifyContext,
               run_dir: Path, run_probe: StateProbe, unset: str,
               changes: Changes | None) -> VerifyOutcome:
    """Setup (if any) then the commands, both in `run_dir`: setup prepares what is tested.

    Setup is recorded on the state it ran on; the commands verify the state it left.
    """
    selection = obs.profile.selection
    if selection.setup is None:
        return _run_commands(obs, context, run_dir, run_probe, unset, None, changes)
    setup = run_setup(run_dir, selection, env=context.env, progress=context.progress,
                      output_cap=selection.output_cap)
    setup_line = obs.record_setup(unset, setup)
    obs.forget_environment()  # what setup installed is part of what the commands run in
    if not setup.passed:
        not_run = CommandsRun.not_run(selection, Reason.SETUP_FAILED, None)
        recorded = record_observation(obs, unset, unset, not_run, setup_line,
                                      environment=obs.environment(context.env, unset))
        return recorded._replace(failing_output=setup.outcome.output)
    before = run_probe.measure().state_key
    moved = request.reuse and not request.checks_only and before != unset
    reuse = _reuse(obs, context, before, setup_line) if moved else None
    if reuse is not None and reuse.outcome is not None:
        return reuse.outcome
    return _declined(_run_commands(obs, context, run_dir, run_probe, before, setup_line), reuse)


def _run_commands(obs: Observation, context: VerifyContext, run_dir: Path,
                  run_probe: StateProbe, before: str, setup_line: str | None,
                  changes: Changes | None = None) -> VerifyOutcome:
    """Run the expectation, then key the workspace it ran in again.

    While git rescans the work tree, this thread makes the observation's notes commit as if
    the commands left the workspace as they found it (the output blobs, the note, its
    trees, the commit: ~30 ms of git processes). Only when the rescan gives the key they
    started on does that commit go onto the ledger, by the same compare-and-swap as every
    append; otherwise it is dropped unpublished and the observation recorded against what
    the rescan found. `changes`: `obs.begin_changes(before)`, begun before the commands.
    """
    selection = obs.profile.selection
    environment = obs.environment(context.env, before)
    commands = run_expectation(run_dir, selection,
                               env={**context.env, "CORREX_STATE_KEY": before},
                               progress=context.progress, output_cap=selection.output_cap)
    run_probe.begin(until_scanning=True)
    try:
        changed = changes() if changes is not None else obs.changed_since_baseline(before)
        unmoved = prepare_observation(obs, before, before, commands, setup_line, changed,
                                      environment)
    except BaseException:
        with suppress(Exception):  # git's rescan must not outlive us, nor its failure (a
            run_probe.measure()    # Ctrl-C reaches git too) stand in for what stopped us
        raise
    after = run_probe.measure().state_key
    if after == before:
        return unmoved.publish()
    return record_observation(obs, before, after, commands, setup_line, changed, environment)


def _reuse(obs: Observation, context: VerifyContext, state_key: str,
           setup_line: str | None) -> Reuse:
    """A citation of an earlier pass of this tree, commands and environment from a trusted
    writer; else why none was.

    Checked before setup runs too: `--reuse` promises that nothing runs when a pass exists.
    """
    from gitcorrex.verify.reuse import reuse_pass  # the event models: only for --reuse

    return reuse_pass(obs, state_key, setup_line, env=context.env)


def _declined(outcome: VerifyOutcome, reuse: Reuse | None) -> VerifyOutcome:
    """The run's outcome, its summary saying first which passes it did not reuse, and why."""
    if reuse is None or not reuse.declined:
        return outcome
    notes = "".join(f"{line}\n" for line in reuse.declined)  # why first, then the run
    return outcome._replace(summary=notes + outcome.summary)


def environment_warnings(repo: Repository, head_tree: str | None,
                         state_key: str) -> tuple[str, ...]:
    """One line naming the environment directories the state key holds beyond HEAD, and
    the fix for each (docs/state-key.md#environment-directories); () for none."""
    found = environment_dirs_added(repo, head_tree, state_key)
    if not found:
        return ()
    named = ", ".join(f"{env.path}/ ({env.what})" for env in found)
    fixes = "; ".join(env.fix for env in found)
    return (f"warning: the state key {state_key[:12]} holds {named}: untracked, not ignored, "
            f"so no commit will hold this key; fix: {fixes}",)


@contextmanager
def _workspace(repo: Repository, state_key: str, isolated: bool,
               probe: StateProbe) -> Iterator[tuple[Path, StateProbe]]:
    """Where commands run, and the probe that keys it: the work tree itself, or a
    throwaway worktree of exactly the state tree."""
    if not isolated:
        yield repo.root, probe
        return
    from gitcorrex.git import temporary_worktree

    with temporary_worktree(repo, state_key) as path, \
            StateProbe(discover(path), index_written_here=True) as isolated_probe:
        yield path, isolated_probe
