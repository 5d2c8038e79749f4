"""Build prerequisites: plan-declared, profile `requires`, and the manifests tools need."""

from __future__ import annotations

import pytest

from gitcorrex.plan.grounding.prerequisites import tool_manifest
from tests.plan.grounding.conftest import Ground, after, only, step


def test_declared_and_required_prerequisites_present(ground: Ground) -> None:
    outcome = ground(step(prerequisites=["pyproject.toml", "go.mod"], checks=["test", "go"]))
    found = only(outcome, "prerequisite", "pyproject.toml")
    assert (found.status.value, found.route.value) == ("present", "pass")
    assert "the plan" in (found.detail or "") and "requires" in (found.detail or "")
    assert only(outcome, "prerequisite", "go.mod").status.value == "present"
    assert outcome.fields.verdict.value == "pass"


def test_missing_tool_manifest_needs_clarification(ground: Ground) -> None:
    outcome = ground(step(checks=["rust"]))
    found = only(outcome, "prerequisite", "Cargo.toml")
    assert (found.status.value, found.route.value) == ("absent", "clarification_required")
    assert found.candidates == ["crates/core/Cargo.toml"]
    assert "cargo test" in (found.detail or "")
    assert outcome.fields.verdict.value == "clarification_required"


def test_missing_declared_prerequisite_needs_clarification(ground: Ground) -> None:
    found = only(ground(step(prerequisites=["requirements.txt"])), "prerequisite",
                 "requirements.txt")
    assert (found.status.value, found.route.value) == ("absent", "clarification_required")


def test_prerequisite_bootstrapped_by_an_earlier_dependency_passes(ground: Ground) -> None:
    outcome = ground(step("S0", writes=["/package.json"], checks=["test"]),
                     step("S1", checks=["web"], dependencies=after("S0")))
    found = only(outcome, "prerequisite", "package.json")
    assert (found.status.value, found.route.value) == ("absent", "pass")
    assert "S0" in (found.detail or "")
    assert outcome.fields.verdict.value == "pass"


def test_prerequisite_written_by_the_step_itself_passes(ground: Ground) -> None:
    outcome = ground(step(writes=["/Cargo.toml", "/crates/core/src/lib.rs"], checks=["rust"]))
    assert only(outcome, "prerequisite", "Cargo.toml").route.value == "pass"


def test_prerequisite_written_by_a_step_not_depended_on_returns(ground: Ground) -> None:
    outcome = ground(step("S0", writes=["/package.json"]), step("S1", checks=["web"]))
    found = only(outcome, "prerequisite", "package.json")
    assert (found.status.value, found.route.value) == ("absent", "return_to_architect")


@pytest.mark.parametrize(("run", "manifest"), [
    ("cargo test", ("Cargo.toml",)),
    ("go test ./...", ("go.mod",)),
    ("npm test", ("package.json",)),
    ("python -m pytest -q", None),
    ("mvn -q verify", ("pom.xml",)),
    ("./gradlew check", ("build.gradle", "build.gradle.kts", "settings.gradle",
                         "settings.gradle.kts")),
    ("go version", None),
    ("python -m pip install -e .", ("pyproject.toml", "setup.py", "setup.cfg")),
    ("pip install -r requirements.txt", None),
    ("pip install -e '.[test]'", ("pyproject.toml", "setup.py", "setup.cfg")),
    ("npm --prefix web test", None),
    ("cargo test --manifest-path=crates/core/Cargo.toml", None),
])
def test_tool_manifest(run: str, manifest: tuple[str, ...] | None) -> None:
    assert tool_manifest(run) == manifest


def test_any_gradle_build_file_satisfies_gradle(ground: Ground, fixture_repo) -> None:
    (fixture_repo / "build.gradle.kts").write_text("plugins {}\n")
    (fixture_repo / ".correx.toml").write_text(
        (fixture_repo / ".correx.toml").read_text().replace(
            'lint = "python -m compileall -q src"', 'lint = "./gradlew check"'))
    outcome = ground(step(checks=["lint"]))
    found = only(outcome, "prerequisite",
                 "build.gradle | build.gradle.kts | settings.gradle | settings.gradle.kts")
    assert (found.status.value, found.paths) == ("present", ["build.gradle.kts"])
