"""Seed 003 §5.2, the synthetic end-to-end cases 1-7, as plan files through the real CLI."""

from __future__ import annotations

from pathlib import Path

from gitcorrex.model.plan_events import Decision
from gitcorrex.model.routes import Route
from gitcorrex.plan.graph import unmet_dependencies
from gitcorrex.plan.load import load_plan
from gitcorrex.session.failure_route import route_after_step_failure
from tests.conftest import git, write
from tests.plan.conftest import codes, fixture, ground, parse, verified


def authorize_and_validate(cli, root: Path, name: str) -> tuple[int, dict]:
    assert cli(root, "plan", "authorize", str(fixture(name))).code in (0, 1)
    result = cli(root, "plan", "validate", str(fixture(name)), "--json")
    return result.code, parse(result)


def test_1_activity_slices_without_independent_outcomes_are_rejected(plan_repo: Path,
                                                                     cli) -> None:
    code, document = authorize_and_validate(cli, plan_repo, "activity_slices.toml")
    assert code == 1 and document["decision"] == "reject"
    failing = {step for step, _ in codes(document)}
    assert failing == {"schema", "storage", "runtime"}, document["findings"]
    assert ("runtime", "output_unmapped") in codes(document)
    assert ("schema", "evidence_outside_step") in codes(document)


def test_1_activity_slices_are_not_even_authorized(plan_repo: Path, cli) -> None:
    result = cli(plan_repo, "plan", "authorize", str(fixture("activity_slices.toml")),
                    "--json")
    assert result.code == 1, result
    document = parse(result)
    assert not document["authorized"] and document["decision"] == "reject"


def test_2_backward_compatible_schema_step_with_migration_check_is_accepted(
        plan_repo: Path, cli) -> None:
    code, document = authorize_and_validate(cli, plan_repo, "compatible_schema.toml")
    assert code == 0 and document["decision"] == "accepted", document


def authorize_and_audit(cli, root: Path, name: str, monkeypatch) -> None:
    """Authorized by the default identity, audited by another (the outside auditor)."""
    assert cli(root, "plan", "authorize", str(fixture(name))).code == 0
    with monkeypatch.context() as patched:
        patched.setenv("GIT_AUTHOR_NAME", "Grace Auditor")
        patched.setenv("GIT_AUTHOR_EMAIL", "grace@example.test")
        assert cli(root, "plan", "audit", str(fixture(name))).code == 0


def test_3_compatible_root_reuse_accepted_only_with_explicit_short_circuit(
        plan_repo: Path, cli, monkeypatch) -> None:
    authorize_and_audit(cli, plan_repo, "compatible_root_reuse.toml", monkeypatch)
    accepted = parse(cli(plan_repo, "plan", "validate",
                            str(fixture("compatible_root_reuse.toml")), "--json"))
    assert accepted["decision"] == "accepted"
    assert accepted["authority"]["kind"] == "risk_audit"
    assert accepted["authority"]["email"] == "grace@example.test"
    lookup = cli(plan_repo, "plan", "validate", str(fixture("compatible_root_lookup.toml")),
                    "--json")
    assert lookup.code == 1
    assert parse(lookup)["decision"] == "stop-escalate"
    assert codes(parse(lookup)) == {("reuse", "audit_obligation_unproven")}


def test_4_retry_to_success_accepted_only_when_completion_is_distinguished(
        plan_repo: Path, cli, monkeypatch) -> None:
    authorize_and_audit(cli, plan_repo, "retry_success.toml", monkeypatch)
    accepted = cli(plan_repo, "plan", "validate", str(fixture("retry_success.toml")))
    assert accepted.code == 0, accepted
    inbox_only = cli(plan_repo, "plan", "validate", str(fixture("retry_inbox_only.toml")),
                        "--json")
    assert inbox_only.code == 1
    assert parse(inbox_only)["decision"] == "stop-escalate"


def test_5_independent_steps_stay_independent_whatever_their_order(plan_repo: Path,
                                                                   cli) -> None:
    code, document = authorize_and_validate(cli, plan_repo, "independent_steps.toml")
    assert code == 0, document
    plan = load_plan(fixture("independent_steps.toml")).plan
    assert [unmet_dependencies(step, []) for step in plan.steps] == [[], []]


def test_6_real_dependency_blocks_until_the_predecessor_completes(plan_repo: Path,
                                                                  cli) -> None:
    code, document = authorize_and_validate(cli, plan_repo, "real_dependency.toml")
    assert code == 0, document
    plan = load_plan(fixture("real_dependency.toml")).plan
    steps = {step.id: step for step in plan.steps}
    assert (unmet_dependencies(steps["S1"], []), unmet_dependencies(steps["S2"], [])) == (
        [], ["S1"])
    assert unmet_dependencies(steps["S2"], ["S1"]) == []


def test_7_valid_step_with_defective_code_continues_with_a_fix(plan_repo: Path,
                                                              cli) -> None:
    plan = str(fixture("atomic_step.toml"))
    code, _ = authorize_and_validate(cli, plan_repo, "atomic_step.toml")
    assert code == 0
    ground(plan_repo, fixture("atomic_step.toml"))
    verified(cli, plan_repo)
    session = cli(plan_repo, "plan", "lock", plan).stdout.strip()
    write(plan_repo, "impl.txt", "defective\n")
    failed = cli(plan_repo, "verify", "--stage", "implement", "--session", session,
                    "--json", "-q")
    assert failed.code == 1 and parse(failed)["result"] == "fail", failed
    again = parse(cli(plan_repo, "plan", "validate", plan, "--json"))
    assert again["decision"] == "accepted", "a code defect is not a plan defect"
    assert route_after_step_failure(Decision(again["decision"])) is Route.CONTINUE_FIX
    assert route_after_step_failure(Decision.REJECT) is Route.REPLAN_REQUIRED
    assert git(plan_repo, "status", "--porcelain").strip() == "M impl.txt"
