"""`git correx verify`: observe the configured commands on the current state key, record it.

The command list is deterministic (stage → expectation → profile); nothing here accepts a
shell command. One observation is recorded per run; a command that changes the workspace
can never yield a pass, because the result would describe a state nobody can name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from gitcorrex import ledger
from gitcorrex.git.repository import Repository, discover_with_git
from gitcorrex.git.state import compute_state
from gitcorrex.git.trees import head_tree
from gitcorrex.git.worktree import temporary_worktree
from gitcorrex.model.events import Provenance
from gitcorrex.model.verification import Reason, Result
from gitcorrex.profiles.load import load_profile
from gitcorrex.verify.observation import Observation, record_observation, record_reuse
from gitcorrex.verify.outcome import VerifyOutcome, VerifyProgress
from gitcorrex.verify.reuse import find_reusable_pass
from gitcorrex.verify.run_commands import CommandsRun, run_expectation, run_setup
from gitcorrex.verify.selection import Selection, select_expectation


@dataclass(frozen=True)
class VerifyRequest:
    """The user's choices; everything else comes from the profile."""

    stage: str | None = None
    expect: str | None = None
    session: str | None = None
    reuse: bool = False
    isolated: bool = False


def verify_workspace(repo: Repository, request: VerifyRequest, *, env: Mapping[str, str],
                     clock: Callable[[], datetime], provenance: Provenance,
                     progress: VerifyProgress) -> VerifyOutcome:
    """Run the selected expectation against the workspace's state key and record it."""
    loaded = load_profile(repo.root)
    selection = select_expectation(loaded.profile, stage=request.stage, expect=request.expect)
    obs = Observation(repo=repo, request_session=request.session, selection=selection,
                      profile_oid=loaded.blob_oid, head_tree=head_tree(repo), clock=clock,
                      provenance=provenance, isolated=request.isolated)
    if not selection.commands:
        state = compute_state(repo).state_key
        return VerifyOutcome(selection.expectation, state, None, None, None,
                             f"expectation {selection.expectation!r} has no commands: "
                             "nothing verified, nothing recorded (no build claim)")
    setup, setup_event = None, None
    if selection.setup is not None:
        unset = compute_state(repo).state_key
        setup = run_setup(repo.root, selection, env=env, progress=progress,
                          output_cap=loaded.profile.defaults.output_cap)
        setup_event = obs.record_setup(unset, setup)
    before = compute_state(repo).state_key
    if request.reuse:
        reusable = find_reusable_pass(ledger.read_subject(repo, before).events,
                                      state_key=before, commands=selection.commands)
        if reusable is not None:
            return record_reuse(obs, before, reusable, setup_event)
    if setup is not None and not setup.passed:
        return record_observation(obs, before, before, CommandsRun.not_run(
            selection, Reason.SETUP_FAILED, None), setup_event)
    with _workspace(repo, before, request.isolated) as (run_dir, run_repo):
        commands = run_expectation(run_dir, selection, env={**env, "CORREX_STATE_KEY": before},
                                   progress=progress,
                                   output_cap=loaded.profile.defaults.output_cap)
        after = compute_state(run_repo).state_key
    return record_observation(obs, before, after, commands, setup_event)


@contextmanager
def _workspace(repo: Repository, state_key: str,
               isolated: bool) -> Iterator[tuple[Path, Repository]]:
    """Where commands run: the work tree itself, or a throwaway worktree of the state tree."""
    if not isolated:
        yield repo.root, repo
        return
    with temporary_worktree(repo, state_key) as path:
        yield path, discover_with_git(path)


__all__ = ["Result", "Selection", "VerifyRequest", "verify_workspace"]
