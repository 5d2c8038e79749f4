"""The known kinds' names alone, generated from the payload classes by
`python schemas/generate.py` (tests/model/test_schemas.py fails when it is stale).

The ledger checks every line's kind against them; importing the classes themselves costs
every model (~15 ms CPU idle, ~40 ms loaded), which the read paths that scan lines without
parsing payloads (`log`, `replay --json`) need not pay.
"""

from __future__ import annotations

KNOWN_KINDS = frozenset({
    "brief_echo_mismatch",
    "brief_grounding_checked",
    "changes_adopted",
    "plan_authorized",
    "plan_grounding_evaluated",
    "plan_locked",
    "plan_risk_audited",
    "plan_routed",
    "plan_validated",
    "precondition_clarified",
    "session_completed",
    "session_paused",
    "session_resumed",
    "session_started",
    "stage_artifacts_checked",
    "static_analysis_completed",
    "step_awaiting_review",
    "step_checks_observed",
    "step_failed",
    "step_reviewed",
    "step_started",
    "step_verified",
    "test_integrity_accepted",
    "test_integrity_weakened",
    "tool_call_assessed",
    "transition_admitted",
    "workspace_precondition_failed",
    "workspace_setup_observed",
    "workspace_verification_observed",
})
