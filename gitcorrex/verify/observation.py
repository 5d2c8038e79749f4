"""Recording what `verify` observed as one ledger event (plus one for setup, if any)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gitcorrex import ledger
from gitcorrex.git.notes import write_blob
from gitcorrex.git.repository import Repository
from gitcorrex.git.trees import changed_paths
from gitcorrex.model.event_kinds import payload_of
from gitcorrex.model.events import Provenance, RecordedEvent
from gitcorrex.model.record import EventPayload
from gitcorrex.model.verification import (
    CommandRecord,
    Result,
    SetupFields,
    VerificationFields,
)
from gitcorrex.profiles.selection import Selection
from gitcorrex.runner.command import CommandOutcome
from gitcorrex.verify.evidence import (
    bounded_paths,
    command_values,
    observation_values,
    skipped_values,
)
from gitcorrex.verify.outcome import VerifyOutcome
from gitcorrex.verify.reuse import original_of
from gitcorrex.verify.run_commands import CommandsRun, ResolvedCommand, SetupRun, decide
from gitcorrex.verify.summary import baseline_tree, summarize


@dataclass(frozen=True)
class Observation:
    """Everything a recording needs that does not change during one verify run."""

    repo: Repository
    request_session: str | None
    step: str | None
    selection: Selection
    profile_oid: str
    head_tree: str | None
    clock: Callable[[], datetime]
    provenance: Provenance
    isolated: bool

    def append(self, draft: ledger.EventDraft) -> RecordedEvent:
        return ledger.append_events(self.repo, [draft], now=self.clock(),
                                    provenance=self.provenance)[0]

    def draft(self, fields: EventPayload, state_key: str,
              anchors: dict[str, str]) -> ledger.EventDraft:
        return ledger.EventDraft(fields, subjects=(state_key,),
                                 session=self.request_session, stage=self.selection.stage,
                                 step=self.step, state_key=state_key, anchors=anchors)

    def record_setup(self, state_key: str, setup: SetupRun) -> RecordedEvent:
        """Setup is evidence of itself; `outcome` is completed or failed, never pass."""
        record, anchors = self.evidence(setup.command, setup.outcome)
        fields = SetupFields(expectation=self.selection.expectation,
                             command=CommandRecord.model_validate(record),
                             outcome="completed" if setup.passed else "failed",
                             profile=self.profile_oid)
        return self.append(self.draft(fields, state_key,
                                      anchors))

    def evidence(self, command: ResolvedCommand,
                 outcome: CommandOutcome | None) -> tuple[dict[str, Any], dict[str, str]]:
        """The command's line values (`verify/evidence.py`) and the output blob to anchor."""
        if outcome is None:
            return skipped_values(command), {}
        blob = write_blob(self.repo, outcome.output)
        return command_values(command, outcome, blob), {blob: "blob"}


def record_observation(obs: Observation, before: str, after: str, run: CommandsRun,
                       setup_event: RecordedEvent | None,
                       changed: tuple[list[str], int] | None = None) -> VerifyOutcome:
    """Decide the result, write the output blobs, append one observation.

    `changed` is `changed_since_baseline(obs, before)` when the caller computed it already
    (verify does, while the commands run).
    """
    result, reason = decide(run, before, after)
    records: list[dict[str, Any]] = []
    anchors: dict[str, str] = {} if after == before else {after: "tree"}
    for command, outcome in run.runs:
        record, more = obs.evidence(command, outcome)
        records.append(record)
        anchors.update(more)
    values = observation_values(
        expectation=obs.selection.expectation, result=result, reason=reason,
        missing_path=run.missing_path, commands=records, writes=list(obs.selection.writes),
        state_after=after, head_tree=obs.head_tree,
        changed=changed or changed_since_baseline(obs, before), profile=obs.profile_oid,
        isolated=obs.isolated)
    fields = VerificationFields.model_validate(values)
    event = obs.append(
        obs.draft(fields, before, anchors)
    )
    summary = summarize(obs.repo, fields, before)
    return VerifyOutcome(
        obs.selection.expectation,
        before,
        event,
        setup_event,
        result,
        summary,
        None if result is Result.PASS else run.failing_output,
    )


def record_reuse(
    obs: Observation, state_key: str, cited: RecordedEvent, setup_event: RecordedEvent | None
) -> VerifyOutcome:
    """A new observation citing an earlier pass of the same tree and commands; runs nothing.

    The evidence (commands, outputs, result) is the cited run's; what this request asked
    (expectation name, stage writes) and where it stands (HEAD, session baseline) are ours.
    """
    known = payload_of(cited)  # a newer writer's keys left out: only what this version knows
    fields = known.model_dump() if isinstance(known, VerificationFields) else {}
    changed, omitted = changed_since_baseline(obs, state_key)
    fields.update(
        expectation=obs.selection.expectation,
        reused_from=original_of(cited),
        writes=list(obs.selection.writes),
        isolated=obs.isolated,
        profile=obs.profile_oid,
        head_tree=obs.head_tree,
        changed_paths=changed,
        changed_paths_omitted=omitted,
    )
    typed = VerificationFields.model_validate(fields)
    event = obs.append(obs.draft(typed, state_key,
                                 {}))
    summary = f"pass (reused {original_of(cited)[:12]}): {obs.selection.expectation} " \
              f"on {state_key[:12]}"
    return VerifyOutcome(obs.selection.expectation, state_key, event, setup_event,
                         Result.PASS, summary)


def changed_since_baseline(obs: Observation, state_key: str) -> tuple[list[str], int]:
    """Paths (bounded) changed since HEAD or the session's latest pass, and how many omitted."""
    baseline = baseline_tree(obs.repo, obs.request_session, obs.head_tree)
    return bounded_paths(changed_paths(obs.repo, baseline, state_key))
