"""Declared writes: unsafe or outside the stage policy is rejected before lock."""

from __future__ import annotations

import pytest

from tests.plan.grounding.conftest import Ground, only, step


def test_write_inside_the_stage_policy_passes(ground: Ground) -> None:
    outcome = ground(step(writes=["/src/retry.py", "/src/client.py"]))
    assert only(outcome, "write", "/src/retry.py").status.value == "absent"
    assert only(outcome, "write", "/src/client.py").status.value == "present"
    assert {f.route.value for f in outcome.fields.findings} == {"pass"}
    assert outcome.fields.verdict.value == "pass"


@pytest.mark.parametrize("path", ["../outside.py", "src/../../x", "/.git/hooks/pre-commit",
                                  "src/.GIT/config", "src\\win.py", "//etc/passwd"])
def test_unsafe_write_is_rejected(ground: Ground, path: str) -> None:
    outcome = ground(step(writes=[path]))
    found = only(outcome, "write", path)
    assert (found.status.value, found.route.value) == ("unknown", "reject")
    assert (found.detail or "").startswith("unsafe path")
    assert outcome.fields.verdict.value == "return_to_architect"


def test_write_outside_the_stage_policy_is_rejected(ground: Ground) -> None:
    found = only(ground(step(writes=["/docs/guide.md"])), "write", "/docs/guide.md")
    assert (found.status.value, found.route.value) == ("present", "reject")
    assert "outside the writes of stage 'implement'" in (found.detail or "")


def test_the_same_write_passes_under_a_stage_that_allows_it(ground: Ground) -> None:
    outcome = ground(step(stage="docs", checks=["docs"], writes=["/docs/guide.md"]))
    assert only(outcome, "write", "/docs/guide.md").route.value == "pass"


def test_stage_missing_from_the_profile_is_rejected(ground: Ground) -> None:
    found = only(ground(step(stage="deploy", writes=["/src/a.py"])), "write", "/src/a.py")
    assert found.route.value == "reject"
    assert "not in the profile" in (found.detail or "")


def test_stage_without_writes_is_unrestricted_as_in_the_manifest_check(ground: Ground) -> None:
    outcome = ground(step(stage="open", writes=["/anything/goes.txt"]))
    assert only(outcome, "write", "/anything/goes.txt").route.value == "pass"


def test_writing_the_profile_is_rejected_even_where_allowed(ground: Ground) -> None:
    found = only(ground(step(stage="open", writes=["/.correx.toml"])), "write",
                 "/.correx.toml")
    assert found.route.value == "reject"


def test_write_inside_a_submodule_is_rejected(ground: Ground) -> None:
    found = only(ground(step(stage="open", writes=["vendor/lib/lib.c"])), "write",
                 "vendor/lib/lib.c")
    assert (found.status.value, found.route.value) == ("unknown", "reject")


def test_pattern_covered_by_a_directory_pattern_passes(ground: Ground) -> None:
    found = only(ground(step(writes=["/src/retry/**"])), "write", "/src/retry/**")
    assert (found.status.value, found.route.value) == ("unknown", "pass")


def test_pattern_not_provably_covered_returns_to_architect(ground: Ground) -> None:
    found = only(ground(step(writes=["/**/*.py"])), "write", "/**/*.py")
    assert found.route.value == "return_to_architect"
