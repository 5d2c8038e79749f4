"""What an observation concludes, as enums alone: `verify` decides and words its verdict
with them without loading pydantic (`model/verification.py` re-exports them beside the
payload models, whose KINDs are these names)."""

from __future__ import annotations

from enum import Enum

OBSERVATION_KIND = "workspace_verification_observed"  # VerificationFields.KIND
SETUP_KIND = "workspace_setup_observed"  # SetupFields.KIND
STEP_CHECKS_KIND = "step_checks_observed"  # StepChecksFields.KIND


class Result(str, Enum):
    """Only `pass` is evidence of a known-good state; the other two never advance a plan."""

    PASS = "pass"
    FAIL = "fail"
    UNAVAILABLE = "unavailable"


class Reason(str, Enum):
    """Why a result is `unavailable`: the question could not be answered as asked."""

    MISSING_PREREQUISITE = "missing_prerequisite"
    COMMAND_NOT_FOUND = "command_not_found"
    WORKSPACE_CHANGED = "workspace_changed"
    TIMEOUT = "timeout"
    SETUP_FAILED = "setup_failed"


class StopReason(str, Enum):
    """How a command ended; `skipped` = not run because an earlier command did not pass."""

    EXIT = "exit"
    TIMEOUT = "timeout"
    SIGNAL = "signal"
    NOT_FOUND = "not_found"
    SKIPPED = "skipped"
