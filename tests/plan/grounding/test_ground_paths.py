"""Referenced paths against the exact path list of the state tree."""

from __future__ import annotations

from tests.plan.grounding.conftest import Ground, after, only, step


def test_existing_file_is_present_with_its_path(ground: Ground) -> None:
    found = only(ground(step(references=["src/client.py"])), "path", "src/client.py")
    assert (found.status.value, found.route.value, found.paths) == ("present", "pass",
                                                                   ["src/client.py"])


def test_existing_directory_is_present(ground: Ground) -> None:
    outcome = ground(step(references=["crates/core/", "/web"]))
    assert only(outcome, "path", "crates/core/").status.value == "present"
    assert only(outcome, "path", "/web").status.value == "present"


def test_file_named_as_directory_is_not_present(ground: Ground) -> None:
    found = only(ground(step(references=["src/client.py/"])), "path", "src/client.py/")
    assert found.status.value != "present"


def test_missing_path_is_absent_with_same_basename_elsewhere(ground: Ground) -> None:
    outcome = ground(step(references=["lib/invoice.py"]))
    found = only(outcome, "path", "lib/invoice.py")
    assert (found.status.value, found.route.value) == ("absent", "return_to_architect")
    assert found.candidates[0] == "src/billing/invoice.py"
    assert outcome.fields.verdict.value == "return_to_architect"


def test_misspelt_path_gets_similar_candidates(ground: Ground) -> None:
    found = only(ground(step(references=["src/clent.py"])), "path", "src/clent.py")
    assert found.status.value == "absent"
    assert "src/client.py" in found.candidates


def test_path_matching_several_paths_by_suffix_is_ambiguous(ground: Ground) -> None:
    found = only(ground(step(references=["client.py"])), "path", "client.py")
    assert (found.status.value, found.route.value) == ("ambiguous", "return_to_architect")
    assert found.candidates == ["src/client.py", "src/util/client.py"]


def test_path_inside_a_submodule_is_unknown(ground: Ground) -> None:
    outcome = ground(step(references=["vendor/lib/lib.c"]))
    found = only(outcome, "path", "vendor/lib/lib.c")
    assert (found.status.value, found.route.value) == ("unknown", "clarification_required")
    assert outcome.fields.verdict.value == "clarification_required"


def test_submodule_itself_is_present(ground: Ground) -> None:
    assert only(ground(step(references=["vendor/lib"])), "path",
                "vendor/lib").status.value == "present"


def test_path_written_by_a_dependency_passes_as_absent(ground: Ground) -> None:
    outcome = ground(step("S1", writes=["/src/retry.py"]),
                     step("S2", references=["src/retry.py"], dependencies=after("S1")))
    found = only(outcome, "path", "src/retry.py")
    assert (found.status.value, found.route.value) == ("absent", "pass")
    assert "S1" in (found.detail or "")


def test_path_written_by_an_unrelated_step_returns_to_architect(ground: Ground) -> None:
    outcome = ground(step("S1", writes=["/src/retry.py"]),
                     step("S2", references=["src/retry.py"]))
    found = only(outcome, "path", "src/retry.py")
    assert (found.status.value, found.route.value) == ("absent", "return_to_architect")
    assert "does not depend on" in (found.detail or "")


def test_non_canonical_reference_is_absent(ground: Ground) -> None:
    found = only(ground(step(references=["src/../src/client.py"])), "path",
                 "src/../src/client.py")
    assert (found.status.value, found.route.value) == ("absent", "return_to_architect")


def test_paths_come_from_the_state_tree_not_the_disk(ground: Ground, fixture_repo) -> None:
    (fixture_repo / ".gitignore").write_text("ignored.py\n")
    (fixture_repo / "ignored.py").write_text("x = 1\n")
    (fixture_repo / "untracked.py").write_text("y = 1\n")
    outcome = ground(step(references=["ignored.py", "untracked.py"]))
    assert only(outcome, "path", "ignored.py").status.value == "absent"
    assert only(outcome, "path", "untracked.py").status.value == "present"
