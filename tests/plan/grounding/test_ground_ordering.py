"""Step ordering: never build on a predecessor whose increment cannot be verified."""

from __future__ import annotations

from tests.plan.grounding.conftest import Ground, after, only, step


def test_dependency_on_a_verified_step_passes(ground: Ground) -> None:
    outcome = ground(step("S1", writes=["/src/client.py"], checks=["test", "lint"],
                          verification_map=[{"output": 0, "evidence": [{"check": 0}]}]),
                     step("S2", dependencies=after("S1")))
    found = only(outcome, "ordering", "S2 after S1")
    assert (found.status.value, found.route.value) == ("present", "pass")
    assert found.detail == "S1 is verified by test, lint"  # what the settlement runs
    assert outcome.fields.verdict.value == "pass"


def test_dependency_on_a_docs_stage_step_with_build_checks_is_rejected(ground: Ground) -> None:
    """Its `checks = ["test"]` never run: a docs stage settles without a build claim."""
    outcome = ground(step("S1", stage="docs", checks=["test"], writes=["/docs/new.md"]),
                     step("S2", dependencies=after("S1")))
    found = only(outcome, "ordering", "S2 after S1")
    assert (found.status.value, found.route.value) == ("absent", "reject")
    assert "never verified" in (found.detail or "")
    assert outcome.fields.verdict.value == "return_to_architect"


def test_dependency_on_a_step_without_writes_is_rejected(ground: Ground) -> None:
    outcome = ground(step("S1"), step("S2", dependencies=after("S1")))
    found = only(outcome, "ordering", "S2 after S1")
    assert (found.status.value, found.route.value) == ("absent", "reject")
    assert "declares no writes" in (found.detail or "")


def test_dependency_on_a_docs_only_step_is_rejected(ground: Ground) -> None:
    outcome = ground(step("S1", stage="docs", checks=["docs"], writes=["/docs/new.md"]),
                     step("S2", dependencies=after("S1")))
    found = only(outcome, "ordering", "S2 after S1")
    assert (found.status.value, found.route.value) == ("absent", "reject")
    assert "docs-only" in (found.detail or "")
    assert outcome.fields.verdict.value == "return_to_architect"


def test_dependency_on_a_step_without_checks_is_rejected(ground: Ground) -> None:
    outcome = ground(step("S1", stage="open", checks=[], verification_map=[],
                          writes=["/src/client.py"]),
                     step("S2", dependencies=after("S1")))
    assert only(outcome, "ordering", "S2 after S1").route.value == "reject"


def test_dependency_on_a_check_the_profile_lacks_is_rejected(ground: Ground) -> None:
    outcome = ground(step("S1", checks=["nonexistent"], writes=["/src/client.py"]),
                     step("S2", dependencies=after("S1")))
    found = only(outcome, "ordering", "S2 after S1")
    assert (found.status.value, found.route.value) == ("unknown", "reject")


def test_dependency_on_a_missing_step_is_rejected(ground: Ground) -> None:
    outcome = ground(step("S2", dependencies=after("S9")))
    assert only(outcome, "ordering", "S2 after S9").route.value == "reject"


def test_a_step_without_dependencies_has_no_ordering_finding(ground: Ground) -> None:
    outcome = ground(step("S1", checks=["docs"]))
    assert [f for f in outcome.fields.findings if f.check.value == "ordering"] == []
