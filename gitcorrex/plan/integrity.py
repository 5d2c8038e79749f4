"""Step integrity, the structural terms (seed 003 INV-1, INV-2, INV-5; §4.1): decided mechanically.

Each step must declare postconditions and checks, map every output exactly once to
evidence resolving inside the same step, and name only profile entries. Nothing is read
from the text of an output: an output counts as verified only through the map.
The semantic terms (useful state, no future step needed) are left to the authority
(`decision.py`); dependency rules live in `graph.py`.
"""

from __future__ import annotations

from gitcorrex.model.plan import Evidence, Plan, PlanStep
from gitcorrex.model.plan_events import Finding
from gitcorrex.model.profile import Profile
from gitcorrex.plan.graph import dependency_findings, step_where


def structural_findings(plan: Plan, profile: Profile) -> list[Finding]:
    """Every structural violation, in plan order; [] when the structure holds."""
    if not plan.steps:
        return [Finding(code="no_steps", step=None, where="steps",
                        message="the plan has no steps",
                        hint="add at least one [[steps]] table")]
    found: list[Finding] = []
    for step in plan.steps:
        found += _contract_findings(plan, step, profile)
        if not plan.is_legacy:
            found += _map_findings(plan, step)
    found += dependency_findings(plan)
    found += _audit_findings(plan)
    return found


def _contract_findings(plan: Plan, step: PlanStep, profile: Profile) -> list[Finding]:
    """INV-1/INV-2 at their simplest: postconditions and checks exist and name real entries."""
    found: list[Finding] = []
    if not step.expected_outputs:
        found.append(_at(plan, step, "expected_outputs_empty", ".expected_outputs",
                         "declares no expected output: nothing is true after it completes",
                         "state each observable postcondition; merge an activity-only step "
                         "into the step whose outcome it serves"))
    if not step.checks:
        found.append(_at(plan, step, "checks_empty", ".checks",
                         "names no check: its outcome cannot be verified at its boundary",
                         "name the profile command or expectation that proves its outputs, "
                         "or merge it with the step that can be verified"))
    entries = {*profile.commands, *profile.expectations}
    for index, name in enumerate(step.checks):
        if name not in entries:
            known = ", ".join(sorted(entries)) or "(none: the profile defines no commands)"
            found.append(_at(plan, step, "check_unknown", f".checks[{index}]",
                             f'"{name}" is not a command or expectation of the profile',
                             f"use one of: {known}"))
    if step.stage not in profile.stages:
        known = ", ".join(sorted(profile.stages)) or "(none: add [stages.<name>] to the profile)"
        found.append(_at(plan, step, "stage_unknown", ".stage",
                         f'"{step.stage}" is not a stage of the profile',
                         f"use one of: {known}"))
    return found


def _map_findings(plan: Plan, step: PlanStep) -> list[Finding]:
    """§4.1: every output index exactly once, every evidence reference inside this step."""
    if step.verification_map is None:
        return [_at(plan, step, "map_missing", ".verification_map",
                    "has no verification_map: a new or re-planned plan must map every "
                    "output to its evidence",
                    "add verification_map = [{ output = 0, evidence = [{ check = 0 }] }, ...]")]
    found: list[Finding] = []
    seen: set[int] = set()
    for entry_index, entry in enumerate(step.verification_map):
        tail = f".verification_map[{entry_index}]"
        if entry.output >= len(step.expected_outputs):
            found.append(_at(plan, step, "output_out_of_range", f"{tail}.output",
                             f"output {entry.output} does not exist in this step "
                             f"({len(step.expected_outputs)} expected outputs)",
                             "map only indices of this step's expected_outputs (from 0)"))
        elif entry.output in seen:
            found.append(_at(plan, step, "output_mapped_twice", f"{tail}.output",
                             f"output {entry.output} is mapped more than once",
                             "map each output exactly once; list all its evidence there"))
        seen.add(entry.output)
        found += _evidence_findings(plan, step, entry.evidence, tail)
    for index in range(len(step.expected_outputs)):
        if index not in seen:
            found.append(_at(plan, step, "output_unmapped", f".expected_outputs[{index}]",
                             f"output {index} has no verification in this step",
                             f"add {{ output = {index}, evidence = [{{ check = <index> }}] }} "
                             "to verification_map, or move the output to the step that "
                             "can prove it"))
    return found


def _evidence_findings(plan: Plan, step: PlanStep, evidence: list[Evidence],
                       tail: str) -> list[Finding]:
    if not evidence:
        return [_at(plan, step, "evidence_empty", f"{tail}.evidence",
                    "maps an output to no evidence",
                    "add { check = <index> } naming one of this step's checks")]
    found: list[Finding] = []
    for index, item in enumerate(evidence):
        where = f"{tail}.evidence[{index}]"
        if item.check is not None and item.check >= len(step.checks):
            found.append(_at(plan, step, "evidence_outside_step", f"{where}.check",
                             f"check {item.check} does not exist in this step "
                             f"({len(step.checks)} checks): the proof would come from "
                             "outside the step",
                             "reference this step's own checks; if only a later step can "
                             "prove this output, merge or reslice the steps"))
        elif item.plan_risk_proof is not None:
            found += _proof_reference_findings(plan, step, item.plan_risk_proof, where)
    return found


def _proof_reference_findings(plan: Plan, step: PlanStep, mode: str,
                              where: str) -> list[Finding]:
    if plan.risk.value != "guarded":
        return [_at(plan, step, "risk_proof_not_guarded", f"{where}.plan-risk-proof",
                    "plan-risk-proof evidence is allowed only in a guarded plan",
                    'use a check, or set risk = "guarded" with a risk_audit')]
    matches = [p for p in plan.risk_audit.proofs if p.step == step.id and p.failure_mode == mode]
    if len(matches) == 1:
        return []
    problem = "matches no" if not matches else "matches more than one"
    return [_at(plan, step, "risk_proof_unresolved", f"{where}.plan-risk-proof",
                f'"{mode}" {problem} proof obligation of step {step.id}',
                f'add exactly one [[risk_audit.proofs]] with step = "{step.id}" and this '
                "failure_mode")]


def _audit_findings(plan: Plan) -> list[Finding]:
    """Proof obligations name existing steps and are unique (step, failure mode) pairs."""
    found: list[Finding] = []
    ids = {step.id for step in plan.steps}
    seen: set[tuple[str, str]] = set()
    for index, proof in enumerate(plan.risk_audit.proofs):
        where = f"risk_audit.proofs[{index}]"
        if proof.step not in ids:
            found.append(Finding(code="proof_unknown_step", step=proof.step,
                                 where=f"{where}.step",
                                 message=f'names step "{proof.step}", which the plan lacks',
                                 hint="name an existing step id"))
        elif (proof.step, proof.failure_mode) in seen:
            found.append(Finding(code="proof_duplicate", step=proof.step, where=where,
                                 message=f'obligation "{proof.failure_mode}" is listed twice',
                                 hint="keep each (step, failure_mode) obligation once"))
        seen.add((proof.step, proof.failure_mode))
    return found


def _at(plan: Plan, step: PlanStep, code: str, tail: str, message: str, hint: str) -> Finding:
    return Finding(code=code, step=step.id, where=step_where(plan, step, tail),
                   message=f"step {step.id} {message}", hint=hint)
