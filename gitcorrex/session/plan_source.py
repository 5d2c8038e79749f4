"""The plan a session executes, read back from the blob the ledger anchors: a session never
depends on the plan file still being where it was locked from."""

from __future__ import annotations

from gitcorrex.errors import ConfigError, TransitionRefusedError
from gitcorrex.git import Repository, read_blob_if_present
from gitcorrex.model.plan import Plan, PlanStep
from gitcorrex.model.session_state import SessionState
from gitcorrex.plan.load import parse_plan


def session_plan(repo: Repository, plan_identity: str | None) -> Plan:
    """The locked plan, read from its stored blob (the ledger anchors it)."""
    raw = read_blob_if_present(repo, plan_identity) if plan_identity else None
    if raw is None:
        raise ConfigError(f"the session's plan blob {plan_identity} is not in this repository",
                          hint="fetch the ledger ref (it anchors the plan), or lock again")
    return parse_plan(raw, source=f"plan {plan_identity}").plan


def session_step(repo: Repository, state: SessionState, step_id: str) -> tuple[Plan, PlanStep]:
    """The session's locked plan and its step `step_id`; a step the plan lacks is refused
    (exit 1) naming the steps it has."""
    plan = session_plan(repo, state.plan)
    step = plan.step(step_id)
    if step is None:
        raise TransitionRefusedError(f"plan {state.plan_id} has no step {step_id!r}",
                                     hint=f"steps: {', '.join(s.id for s in plan.steps)}")
    return plan, step
