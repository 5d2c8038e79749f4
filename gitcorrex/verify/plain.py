"""The plain `verify` (no session, no `--reuse`, `--isolated`, `--artifact` or `--json`):
the same observation as the model path, recorded without pydantic and without pygit2.

Every orchestrator step and hook pays a verify, and on a 50,000-file workspace the model
path spent ~370 ms CPU importing pydantic, the event and profile models and pygit2 — more
than its two scans of the work tree. This path reads the profile's selection from what the
model path stored for the profile's exact bytes (`selection_cache.py`), runs the commands
with the same code (`run_commands.py`), words the evidence with the same functions
(`evidence.py`, `verdict.py`) and appends with `ledger_append.py` (git plumbing, the same
canonical line). It answers None — before anything ran — whenever it cannot do exactly
what the model path would (no stored selection, a setup command, no commands, a SHA-256
repository, no profile): the caller then runs the model path on the same probe.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from gitcorrex.git.changes import changed_path_names
from gitcorrex.git.notes_write import write_blob_with_git
from gitcorrex.git.repository import Repository
from gitcorrex.git.state import StateProbe
from gitcorrex.ledger_append import append_event_with_git, provenance_stamp
from gitcorrex.model.session_object import git_blob_oid
from gitcorrex.model.verdicts import OBSERVATION_KIND, Result
from gitcorrex.verify.evidence import (
    bounded_paths,
    command_values,
    observation_values,
    skipped_values,
)
from gitcorrex.verify.outcome import VerifyOutcome, VerifyProgress
from gitcorrex.verify.run_commands import CommandsRun, decide, run_expectation
from gitcorrex.verify.selection_cache import PlainSelection, cached_selection
from gitcorrex.verify.verdict import verdict_summary

PROFILE_NAME = ".correx.toml"


def verify_plain(repo: Repository, probe: StateProbe, *, stage: str | None,
                 expect: str | None, env: Mapping[str, str], clock: Callable[[], datetime],
                 progress: VerifyProgress) -> VerifyOutcome | None:
    """Observe and record as `usecase.observe_workspace` does for a plain request; None
    (nothing run, the probe untouched) when only the model path can."""
    selection = _selection(repo, stage, expect)
    if selection is None:
        return None
    profile, chosen = selection
    provenance = provenance_stamp(repo)  # an identity git refuses stops us before running
    state = probe.measure()
    before = state.state_key
    commands = run_expectation(repo.root, chosen, env={**env, "CORREX_STATE_KEY": before},
                               progress=progress, output_cap=chosen.output_cap)
    probe.begin()  # git rescans while this thread diffs and stores the outputs
    try:
        changed = bounded_paths(changed_path_names(repo, state.head_tree, before))
        records, anchors = _evidence(repo, commands)
    finally:
        after = probe.measure().state_key
    result, reason = decide(commands, before, after)
    if after != before:
        anchors = {after: "tree", **anchors}
    values = observation_values(
        expectation=chosen.expectation, result=result, reason=reason,
        missing_path=commands.missing_path, commands=records, writes=list(chosen.writes),
        state_after=after, head_tree=state.head_tree, changed=changed, profile=profile,
        isolated=False)
    append_event_with_git(repo, kind=OBSERVATION_KIND, fields=values, subjects=[before],
                          anchors=anchors, stage=chosen.stage, state_key=before, now=clock(),
                          provenance=provenance)
    return VerifyOutcome(chosen.expectation, before, None, None, result,
                         verdict_summary(repo, values, before),
                         None if result is Result.PASS else commands.failing_output)


def _selection(repo: Repository, stage: str | None,
               expect: str | None) -> tuple[str, PlainSelection] | None:
    """The profile's blob id and its stored selection, when this path can run it."""
    if repo.work_tree is None or repo.object_format != "sha1":
        return None
    try:
        raw = (repo.root / PROFILE_NAME).read_bytes()
    except OSError:
        return None  # the model path says what is wrong with it
    profile = git_blob_oid(raw)
    chosen = cached_selection(repo, profile, stage, expect)
    if chosen is None or chosen.setup is not None or not chosen.commands:
        return None
    return profile, chosen


def _evidence(repo: Repository,
              run: CommandsRun) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Each command's line values, its output stored as a blob to anchor (as
    `Observation.evidence`)."""
    records: list[dict[str, Any]] = []
    anchors: dict[str, str] = {}
    for command, outcome in run.runs:
        if outcome is None:
            records.append(skipped_values(command))
            continue
        blob = write_blob_with_git(repo, outcome.output)
        records.append(command_values(command, outcome, blob))
        anchors[blob] = "blob"
    return records, anchors
