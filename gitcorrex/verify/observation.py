"""Recording what `verify` observed as one ledger event (plus one for setup, if any).

The observation is built as the JSON values its line holds (`verify/evidence.py`) and
appended through the one ledger writer (`ledger.append_lines`): no model is built to record
it. The lines read back into `VerificationFields`/`SetupFields` (tests hold every written
line to them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, NamedTuple

from gitcorrex import git, ledger
from gitcorrex.git import Repository, changed_paths, max_changed_paths
from gitcorrex.model.provenance import Provenance
from gitcorrex.model.session_object import session_object_oid
from gitcorrex.model.verdicts import OBSERVATION_KIND, SETUP_KIND, STEP_CHECKS_KIND, Result
from gitcorrex.runner.command import CommandOutcome
from gitcorrex.verify.evidence import (
    bounded_paths,
    command_values,
    observation_values,
    skipped_values,
)
from gitcorrex.verify.outcome import VerifyOutcome
from gitcorrex.verify.run_commands import CommandsRun, ResolvedCommand, SetupRun, decide
from gitcorrex.verify.selection import ProfileSelection
from gitcorrex.verify.verdict import verdict_summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitcorrex.ledger.append import PreparedAppend


class Observation:
    """Everything a recording needs that does not change during one verify run."""

    __slots__ = ("_environment", "clock", "head_tree", "isolated", "kind", "profile",
                 "provenance", "repo", "session", "step")

    def __init__(self, repo: Repository, *, session: str | None, step: str | None,
                 profile: ProfileSelection, clock: Callable[[], datetime],
                 provenance: Provenance, isolated: bool, checks_only: bool = False) -> None:
        self.repo, self.session, self.step, self.profile = repo, session, step, profile
        self.clock, self.provenance, self.isolated = clock, provenance, isolated
        self.head_tree: str | None = None  # from the probe's first measurement
        # a step's own checks without a build claim are their own kind, never a pass
        self.kind = STEP_CHECKS_KIND if checks_only else OBSERVATION_KIND
        self._environment: tuple[str, dict[str, Any]] | None = None

    def environment(self, env: Mapping[str, str], state_key: str) -> dict[str, Any]:
        """The fingerprint of running the selection's commands with `env` on `state_key`
        (runner/environment.py), taken once per state: the reuse check and the record share
        it unless setup ran in between (`forget_environment`). Always described from the
        work tree, where a plain verify runs: an `--isolated` run's throwaway worktree holds
        the same tree (and sees the same PATH), so both fingerprint alike."""
        if self._environment is None or self._environment[0] != state_key:
            from gitcorrex.runner.environment import fingerprint

            selection = self.profile.selection
            self._environment = state_key, fingerprint(
                self.repo, commands=selection.commands, policy=selection.environment,
                run_dir=self.repo.root, env=env, state_key=state_key)
        return self._environment[1]

    def forget_environment(self) -> None:
        """Setup ran: what it installed is part of the environment the commands run in."""
        self._environment = None

    @property
    def expectation(self) -> str:
        return self.profile.selection.expectation

    def append(self, kind: str, fields: dict[str, Any], state_key: str,
               anchors: dict[str, str]) -> str:
        """Record one event about `state_key` (and the session, if any); the line written."""
        return self.prepare(kind, fields, state_key, anchors).publish()[0]

    def prepare(self, kind: str, fields: dict[str, Any], state_key: str,
                anchors: dict[str, str]) -> PreparedAppend:
        """`append`'s notes commit made now, left off the ledger until published."""
        draft = ledger.Draft(kind, fields, (state_key,), self.session,
                             self.profile.selection.stage, self.step, state_key, anchors)
        return ledger.prepare_append(self.repo, [draft], now=self.clock(),
                                     provenance=self.provenance)

    def evidence(self, command: ResolvedCommand,
                 outcome: CommandOutcome | None) -> tuple[dict[str, Any], dict[str, str]]:
        """The command's line values (`verify/evidence.py`) and the output blob to anchor."""
        if outcome is None:
            return skipped_values(command), {}
        blob = git.write_blob(self.repo, outcome.output)
        return command_values(command, outcome, blob), {blob: "blob"}

    def record_setup(self, state_key: str, setup: SetupRun) -> str:
        """Setup is evidence of itself; `outcome` is completed or failed, never pass."""
        record, anchors = self.evidence(setup.command, setup.outcome)
        fields = {"expectation": self.expectation, "command": record,
                  "outcome": "completed" if setup.passed else "failed",
                  "profile": self.profile.profile}
        return self.append(SETUP_KIND, fields, state_key, anchors)

    def begin_changes(self, state_key: str) -> Callable[[], tuple[list[str], int]]:
        """`changed_since_baseline(state_key)` started on a thread; its waiter. A diff of two
        trees known already (~10 ms of git on 50,000 files, several times that beside a
        scan) is then answered while the commands are prepared and run."""
        return git.in_background(lambda: self.changed_since_baseline(state_key),
                                 name="correx-changes")

    def changed_since_baseline(self, state_key: str) -> tuple[list[str], int]:
        """Paths (bounded) changed since HEAD or the session's latest pass, and how many
        were left out."""
        baseline = baseline_tree(self.repo, self.session, self.head_tree, self.profile.profile)
        return bounded_paths(changed_paths(self.repo, baseline, state_key),
                             max_changed_paths(self.repo))


def record_observation(obs: Observation, before: str, after: str, run: CommandsRun,
                       setup_line: str | None,
                       changed: tuple[list[str], int] | None = None,
                       environment: dict[str, Any] | None = None) -> VerifyOutcome:
    """Decide the result, write the output blobs, append one observation.

    `changed` is `obs.changed_since_baseline(before)` when the caller computed it already
    (verify does, while git rescans after the commands); `environment` the fingerprint of
    what the commands ran in (None only when none ran: setup failed).
    """
    return prepare_observation(obs, before, after, run, setup_line, changed,
                               environment).publish()


class PreparedObservation(NamedTuple):
    """An observation decided and its notes commit made, not yet on the ledger."""

    obs: Observation
    before: str
    setup_line: str | None
    values: dict[str, Any]
    result: Result
    failing_output: bytes | None
    append: PreparedAppend

    def publish(self) -> VerifyOutcome:
        """Move the ledger onto the observation (retrying as every append does); what
        verify reports."""
        line = self.append.publish()[0]
        expectation = self.obs.expectation
        return VerifyOutcome(expectation, self.before, line, self.setup_line, self.result,
                             verdict_summary(self.obs.repo, self.values, self.before),
                             self.failing_output)


def prepare_observation(obs: Observation, before: str, after: str, run: CommandsRun,
                        setup_line: str | None,
                        changed: tuple[list[str], int] | None = None,
                        environment: dict[str, Any] | None = None) -> PreparedObservation:
    """`record_observation` up to the ref: the result decided, the output blobs and the
    notes commit written (verify makes them while git rescans, assuming the commands left
    the workspace as they found it; it publishes only once the rescan agrees)."""
    result, reason = decide(run, before, after)
    records: list[dict[str, Any]] = []
    anchors: dict[str, str] = {} if after == before else {after: "tree"}
    for command, outcome in run.runs:
        record, more = obs.evidence(command, outcome)
        records.append(record)
        anchors.update(more)
    selection = obs.profile.selection
    values = observation_values(
        expectation=selection.expectation, result=result, reason=reason,
        missing_path=run.missing_path, commands=records, writes=list(selection.writes),
        state_after=after, head_tree=obs.head_tree,
        changed=changed or obs.changed_since_baseline(before), profile=obs.profile.profile,
        isolated=obs.isolated, profile_from=obs.profile.profile_from,
        environment=environment)
    prepared = obs.prepare(obs.kind, values, before, anchors)
    return PreparedObservation(obs, before, setup_line, values, result,
                               None if result is Result.PASS else run.failing_output, prepared)


def baseline_tree(repo: Repository, session: str | None, head_tree: str | None,
                  profile: str) -> str | None:
    """Inside a session: the latest state that passed under the profile this run uses (in
    session order; model/observed_pass.py); otherwise (or before any pass) HEAD."""
    if session is None:
        return head_tree
    from gitcorrex.model.event_order import session_order  # a session's read only
    from gitcorrex.model.observed_pass import is_observed_pass

    entries = ledger.read_subject(repo, session_object_oid(session)).entries
    passes = [entry for entry in entries
              if entry.session == session and is_observed_pass(entry, profile)]
    if not passes:
        return head_tree
    latest = max(passes, key=session_order)
    return latest.state_key
