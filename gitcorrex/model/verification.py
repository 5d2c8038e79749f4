"""Kind-specific fields of `workspace_verification_observed` and `workspace_setup_observed`.

An observation binds a result to the exact state key it was observed on, the commands
(by argv and digest of their profile entry) and the evidence of each run, so a later dirty
workspace can never be mistaken for the state that was verified.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from gitcorrex.model.environment import EnvironmentPrint
from gitcorrex.model.events import Oid
from gitcorrex.model.record import EventPayload, Record
from gitcorrex.model.verdicts import OBSERVATION_KIND, SETUP_KIND, STEP_CHECKS_KIND
from gitcorrex.model.verdicts import Reason as Reason  # re-exported: callers import them here
from gitcorrex.model.verdicts import Result as Result
from gitcorrex.model.verdicts import StopReason as StopReason


class OutputEvidence(Record):
    """Size and digest of everything printed; a bounded tail; the kept output as a blob."""

    size: int
    sha256: str
    tail: str
    blob: Oid | None
    truncated: bool


class CommandRecord(Record):
    """One command of the expectation: what was asked and how it ended."""

    name: str
    argv: list[str]
    digest: str
    exit_code: int | None
    signal: int | None
    stop_reason: StopReason
    duration_ms: int
    output: OutputEvidence | None


class VerificationFields(EventPayload):
    """`workspace_verification_observed` beyond the envelope (which carries state_key).

    `profile` is the blob of the `.correx.toml` the commands came from: a pass counts only
    under a profile the reader trusts (model/observed_pass.py). `profile_from` is the
    commit whose profile was run on purpose instead of the tree's (`verify --profile-from
    REV`, e.g. the base's profile for the CI gate); absent otherwise, so older lines stay
    byte-equal. `environment` is what the commands ran in (model/environment.py); absent on
    lines recorded before fingerprints, which no reuse trusts.
    """

    KIND = OBSERVATION_KIND
    OMIT_WHEN_NONE = frozenset({"profile_from", "environment"})

    expectation: str
    result: Result
    reason: Reason | None
    missing_path: str | None
    commands: list[CommandRecord]
    writes: list[str]
    state_after: Oid | None
    head_tree: Oid | None
    changed_paths: list[str]
    changed_paths_omitted: int
    profile: Oid
    isolated: bool
    reused_from: str | None
    profile_from: Oid | None = None
    environment: EnvironmentPrint | None = None


class StepChecksFields(VerificationFields):
    """`step_checks_observed`: a step's own plan checks, run by the settlement of a step
    that makes no build claim (a docs stage, or no declared writes). The same evidence as
    an observation, under its own kind, so that no reader of passes (`log`, `check`, a
    lock, a session's baseline, `--reuse`) ever counts it: a docs-only stage does not
    manufacture a build claim (seed 000). The step's `step_verified` cites it."""

    KIND = STEP_CHECKS_KIND


class SetupFields(EventPayload):
    """`workspace_setup_observed`: a setup run is evidence of itself, never a pass."""

    KIND = SETUP_KIND

    expectation: str
    outcome: str
    command: CommandRecord
    profile: Oid


class ObservedResult(BaseModel):
    """The result of an observation line alone (its other fields ignored): what a reader
    looks at before paying for the whole payload (`note_lines.peek`)."""

    model_config = ConfigDict(frozen=True, extra="ignore", defer_build=True)

    result: Result
