"""Which declared edge admits a blocker claim (seed 004: the workflow author's declared edge
is the policy boundary; admission only verifies the fact).

A plan step declares the blocker claims that may pause it terminally
(`blockers = [{class, provider, fact}]`). A claim is considered only when it matches an
edge of the active step — between steps, of a step not verified yet — by class, provider
and fact; anything else is `not_declared` and nothing is observed or written.
"""

from __future__ import annotations

from gitcorrex.model.plan import Plan, PlanStep
from gitcorrex.model.session_claims import BlockerClaim
from gitcorrex.model.session_state import SessionState, StepStatus


def declaring_step(plan: Plan, state: SessionState, claim: BlockerClaim) -> str | None:
    """The id of the step whose declared edge matches `claim`, or None."""
    for step in _candidates(plan, state):
        if any(edge.matches(claim.claim_class, claim.provider, claim.fact)
               for edge in step.blockers or []):
            return step.id
    return None


def not_declared(plan: Plan, state: SessionState, claim: BlockerClaim) -> str:
    """Why the claim is not admitted, naming the edges that are declared and the fix."""
    steps = _candidates(plan, state)
    where = f"step {state.active_step}" if state.active_step else \
        f"the steps not verified yet ({', '.join(s.id for s in steps) or 'none'})"
    declared = [f"{edge} (step {step.id})" for step in steps for edge in step.blockers or []]
    return (f"{where} of plan {plan.id} declares no blocker edge {claim.claim_class.value} "
            f"{claim.provider}:{claim.fact}; declared: {'; '.join(declared) or 'none'}. "
            "Only a declared edge may pause a session terminally: declare it in the plan step "
            f'(blockers = [{{class = "{claim.claim_class.value}", provider = '
            f'"{claim.provider}", fact = "{claim.fact}"}}]) and re-plan')[:1024]


def _candidates(plan: Plan, state: SessionState) -> list[PlanStep]:
    if state.active_step is not None:
        active = plan.step(state.active_step)
        return [active] if active is not None else []
    return [step for step in plan.steps
            if (known := state.step(step.id)) is None or known.status is not StepStatus.VERIFIED]
