"""Seed 003 §5.1: the contract and semantic cases, each a plan file run through the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcorrex.model.plan_events import PlanValidatedFields
from tests.conftest import write
from tests.plan.conftest import codes, fixture, ground, parse, plan_events, verified


def validate(cli, root: Path, name: str) -> tuple[int, dict]:
    result = cli(root, "plan", "validate", str(fixture(name)), "--json")
    assert result.code in (0, 1), result
    return result.code, parse(result)


@pytest.mark.parametrize(("name", "expected"), [
    ("empty_outputs.toml", {("S1", "expected_outputs_empty")}),
    ("empty_checks.toml", {("S1", "checks_empty"), ("S1", "evidence_outside_step")}),
    ("unmapped_output.json", {("S1", "output_unmapped")}),
    ("map_missing.toml", {("S1", "map_missing")}),
    ("dependency_missing.toml", {("S1", "dependency_missing")}),
    ("dependency_self.toml", {("S1", "dependency_self")}),
    ("dependency_cycle.toml", {("S1", "dependency_cycle")}),
    ("dependency_not_causal.toml", {("S2", "dependency_not_causal"),
                                    ("S3", "dependency_output_out_of_range")}),
    ("future_step.toml", {("S1", "evidence_outside_step")}),
])
def test_structural_defect_is_rejected_before_authorization(plan_repo: Path, cli, name: str,
                                                            expected: set) -> None:
    code, document = validate(cli, plan_repo, name)
    assert code == 1
    assert document["decision"] == "reject"
    assert codes(document) == expected
    assert not document["accepted"]
    fields = {key: value for key, value in document.items() if key not in ("accepted", "event")}
    assert PlanValidatedFields.model_validate(fields).findings


def test_every_mapping_rule_names_its_step_and_field(plan_repo: Path, cli) -> None:
    code, document = validate(cli, plan_repo, "mapping_errors.json")
    assert code == 1 and document["decision"] == "reject"
    assert codes(document) == {
        ("twice", "output_mapped_twice"), ("range", "output_out_of_range"),
        ("no-evidence", "evidence_empty"), ("low-proof", "risk_proof_not_guarded"),
        ("unknown-names", "check_unknown"), ("unknown-names", "stage_unknown")}
    where = {f["code"]: f["where"] for f in document["findings"]}
    assert where["output_mapped_twice"] == "steps[0] (twice).verification_map[1].output"
    assert where["check_unknown"] == "steps[4] (unknown-names).checks[0]"


def test_cycle_finding_names_the_cycle(plan_repo: Path, cli) -> None:
    _, document = validate(cli, plan_repo, "dependency_cycle.toml")
    [finding] = document["findings"]
    assert "S1 -> S3 -> S2 -> S1" in finding["message"]


def test_one_atomic_step_is_accepted_on_its_authorization(plan_repo: Path, cli) -> None:
    assert cli(plan_repo, "plan", "authorize", str(fixture("atomic_step.toml"))).code == 0
    code, document = validate(cli, plan_repo, "atomic_step.toml")
    assert code == 0 and document["decision"] == "accepted", document
    assert document["authority"]["kind"] == "authorization"
    assert document["authority"]["email"] == "ada@example.test"


def test_unauthorized_low_risk_plan_stops_and_escalates(plan_repo: Path, cli) -> None:
    result = cli(plan_repo, "plan", "validate", str(fixture("atomic_step.toml")))
    assert result.code == 1, result
    assert result.stdout.startswith("plan retry-delivery (")
    assert "): stop-escalate\n  risk: a low-risk plan's semantic claims" in result.stdout
    assert "    hint: review the plan, then run `git correx plan authorize PLAN`" in result.stdout


def test_a_first_validate_of_a_low_risk_plan_says_it_waits_on_an_authorization(
        plan_repo: Path, cli) -> None:
    plan = fixture("atomic_step.toml")
    result = cli(plan_repo, "plan", "validate", str(plan))
    assert result.code == 1, result
    assert "  not authorized yet, so nothing has failed: a person reviews the plan and " \
        "authorizes it, then validates again\n" in result.stdout
    assert result.stdout.endswith(f"next: git correx plan authorize {plan}\n"), result


def test_an_authorized_guarded_plan_names_the_audit_next(plan_repo: Path, cli) -> None:
    plan = fixture("guarded_two_proofs.toml")
    assert cli(plan_repo, "plan", "authorize", str(plan)).code == 0
    result = cli(plan_repo, "plan", "validate", str(plan))
    assert result.code == 1, result
    assert result.stdout.endswith(f"next: git correx plan audit {plan}\n"), result


def test_guarded_plan_not_covered_by_the_audit_stops_and_escalates(plan_repo: Path,
                                                                   cli) -> None:
    code, document = validate(cli, plan_repo, "guarded_uncovered.toml")
    assert code == 1 and document["decision"] == "stop-escalate"
    assert codes(document) == {("S2", "audit_uncovered_step")}


def test_authorization_does_not_replace_the_guarded_risk_audit(plan_repo: Path,
                                                               cli) -> None:
    assert cli(plan_repo, "plan", "authorize", str(fixture("guarded_uncovered.toml"))).code == 0
    _, document = validate(cli, plan_repo, "guarded_uncovered.toml")
    assert document["decision"] == "stop-escalate"


def test_invalid_step_after_execution_started_routes_replan_required(plan_repo: Path,
                                                                     cli) -> None:
    plan = str(fixture("atomic_step.toml"))
    assert cli(plan_repo, "plan", "authorize", plan).code == 0
    assert cli(plan_repo, "plan", "validate", plan).code == 0
    ground(plan_repo, fixture("atomic_step.toml"))
    verified(cli, plan_repo)
    assert cli(plan_repo, "plan", "lock", plan).code == 0
    profile = (plan_repo / ".correx.toml").read_text().replace("test = ", "unit = ")
    write(plan_repo, ".correx.toml", profile.replace('["lint", "test"]', '["lint", "unit"]'))
    code, document = validate(cli, plan_repo, "atomic_step.toml")
    assert code == 1
    assert document["decision"] == "replan-required" and document["execution_started"]
    assert codes(document) == {("S1", "check_unknown")}


def test_validation_is_recorded_on_the_plan_blob(plan_repo: Path, cli) -> None:
    _, document = validate(cli, plan_repo, "empty_outputs.toml")
    [event] = plan_events(plan_repo, fixture("empty_outputs.toml"))
    assert event.kind == "plan_validated" and event.id == document["event"]
    fields = PlanValidatedFields.model_validate(event.model_extra)
    assert fields.decision.value == "reject" and fields.plan == document["plan"]


def test_validate_without_profile_is_a_configuration_error(make_repo, cli) -> None:
    root = make_repo("bare-profile")
    result = cli(root, "plan", "validate", str(fixture("atomic_step.toml")))
    assert result.code == 2, result
    assert "git correx init" in result.stderr
