"""Kind-specific fields of `workspace_verification_observed` and `workspace_setup_observed`.

An observation binds a result to the exact state key it was observed on, the commands
(by argv and digest of their profile entry) and the evidence of each run, so a later dirty
workspace can never be mistaken for the state that was verified.
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict

from gitcorrex.model.environment import EnvironmentPrint
from gitcorrex.model.events import Oid
from gitcorrex.model.printable import printable
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


class TrustBasis(str, Enum):
    """Why a pass from the ledger may save a run here (verify/reuse_trust.py)."""

    OWN = "own"  # its line was added by a ledger commit this clone wrote
    SIGNED = "signed"  # by a commit git verified as signed by an allowed signer


class ReusedTrust(Record):
    """Whose pass a reuse cites and how it was trusted. `writer` and `host` are what the
    cited event's `actor` says (a claim: any writer sets its own); `signer` and `key` are
    what git verified on the ledger commit that added it (set only for `signed`)."""

    basis: TrustBasis
    writer: str
    host: str | None
    ledger_commit: str | None
    signer: str | None = None
    key: str | None = None

    def describe(self) -> str:
        """`pass by W on H, written in the clone that reused it` or `…, signed by
        PRINCIPAL key K`."""
        how = "written in the clone that reused it" if self.basis is TrustBasis.OWN \
            else f"signed by {self.signer} key {self.key}"
        text = f"pass by {self.writer}" + (f" on {self.host}" if self.host else "") + \
            f", {how}"
        return printable(text)  # a foreign line's writer may carry a line break


class VerificationFields(EventPayload):
    """`workspace_verification_observed` beyond the envelope (which carries state_key).

    `profile` is the blob of the `.correx.toml` the commands came from: a pass counts only
    under a profile the reader trusts (model/observed_pass.py). `profile_from` is the
    commit whose profile was run on purpose instead of the tree's (`verify --profile-from
    REV`, e.g. the base's profile for the CI gate); absent otherwise, so older lines stay
    byte-equal. `environment` is what the commands ran in (model/environment.py); absent on
    lines recorded before fingerprints, which no reuse trusts. `reused_trust`: on a reuse
    (`reused_from`), whose pass it cites and why it was trusted; absent otherwise.
    """

    KIND = OBSERVATION_KIND
    OMIT_WHEN_NONE = frozenset({"profile_from", "environment", "reused_trust"})

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
    reused_trust: ReusedTrust | None = None
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
