"""Plan identity: the blob id of the canonical JSON; index references make order part of it."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from gitcorrex.errors import ConfigError
from gitcorrex.model.events import git_blob_oid
from gitcorrex.model.plan import canonical_plan_json, plan_identity
from gitcorrex.plan.load import load_plan, parse_plan
from tests.conftest import git
from tests.plan.conftest import fixture, parse


def _document(name: str) -> dict:
    return json.loads(load_plan(fixture(name)).canonical_bytes)


def _identity(document: dict) -> str:
    return parse_plan(json.dumps(document).encode(), source="plan.json").identity


def test_identity_is_the_blob_id_of_the_canonical_json() -> None:
    loaded = load_plan(fixture("atomic_step.toml"))
    assert loaded.identity == git_blob_oid(loaded.canonical_bytes)
    assert loaded.identity == plan_identity(loaded.plan)
    assert loaded.canonical_bytes == canonical_plan_json(loaded.plan).encode("ascii")


def test_formatting_key_order_comments_and_format_do_not_change_identity() -> None:
    toml = load_plan(fixture("atomic_step.toml"))
    reformatted = load_plan(fixture("atomic_step_reformatted.json"))
    assert reformatted.identity == toml.identity


def test_omitted_empty_lists_equal_written_ones() -> None:
    document = _document("atomic_step.toml")
    trimmed = copy.deepcopy(document)
    del trimmed["steps"][0]["dependencies"], trimmed["risk_audit"]
    assert _identity(trimmed) == _identity(document)


@pytest.mark.parametrize(("name", "path"), [
    ("compatible_schema.toml", ("steps", 0, "expected_outputs")),
    ("compatible_schema.toml", ("steps", 0, "checks")),
    ("real_dependency.toml", ("steps",)),
])
def test_reordering_outputs_checks_or_steps_changes_identity(name: str,
                                                             path: tuple) -> None:
    document = _document(name)
    changed = copy.deepcopy(document)
    target = changed
    for key in path:
        target = target[key]
    target.reverse()
    assert changed != document
    assert _identity(changed) != _identity(document)


def test_legacy_plan_keeps_its_identity_across_formats() -> None:
    toml, json_form = load_plan(fixture("legacy_plan.toml")), load_plan(fixture("legacy_plan.json"))
    assert toml.plan.is_legacy and toml.identity == json_form.identity
    assert "verification_map" not in toml.canonical_bytes.decode()


def test_validate_stores_the_canonical_blob_and_anchors_it(plan_repo: Path, cli) -> None:
    result = cli(plan_repo, "plan", "validate", str(fixture("atomic_step.toml")), "--json")
    identity = parse(result)["plan"]
    git(plan_repo, "gc", "-q", "--prune=now")
    stored = git(plan_repo, "cat-file", "blob", identity)
    assert stored.encode() == load_plan(fixture("atomic_step.toml")).canonical_bytes


def test_malformed_plan_names_file_step_and_field(plan_repo: Path, cli) -> None:
    result = cli(plan_repo, "plan", "validate", str(fixture("malformed_evidence.toml")))
    assert result.code == 2, result
    assert "malformed_evidence.toml: steps[1] (S2).verification_map[0].evidence[0]" \
        in result.stderr, result
    assert "exactly one" in result.stderr


def test_malformed_json_names_line_and_column(plan_repo: Path, cli) -> None:
    result = cli(plan_repo, "plan", "validate", str(fixture("malformed_syntax.json")))
    assert result.code == 2, result
    assert "malformed_syntax.json: line 2" in result.stderr


@pytest.mark.parametrize(("name", "text", "where"), [
    ("deep.json", '{"version": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}", ""),
    ("deep.json", '{"version": 1, "x": ' + "[" * 40 + "]" * 40 + "}", "x: "),
    ("deep.toml", "version = 1\nx = " + "[" * 1000 + "]" * 1000 + "\n", "x (line 2, column "),
])
def test_a_plan_nested_too_deep_is_exit_2_naming_where(plan_repo: Path, cli, tmp_path: Path,
                                                       name: str, text: str, where: str) -> None:
    """The JSON decoder and the TOML reader end in RecursionError about that deep (exit 4)."""
    path = tmp_path / name
    path.write_text(text)
    result = cli(plan_repo, "plan", "validate", str(path))
    assert result.code == 2, result
    assert f"{name}: {where}" in result.stderr and "nested more than 32 levels" in result.stderr


@pytest.mark.parametrize(("text", "where"), [
    ('version = 1\nid = "p"\nrisk = "high"\nsteps = []\n', "risk"),
    ('version = 2\nid = "p"\nrisk = "low"\nsteps = []\n', "version"),
    ('version = true\nid = "p"\nrisk = "low"\nsteps = []\n', "version"),
    ('version = 1\nid = "p"\nrisk = "low"\n[[steps]]\nid = "S1"\nstage = "implement"\n'
     'chekcs = ["test"]\n', "steps[0] (S1).chekcs"),
    ('version = 1\nid = "p"\nrisk = "low"\n[[steps]]\nid = "S1"\nstage = "implement"\n'
     '[[steps]]\nid = "S1"\nstage = "implement"\n', "steps[1] (S1).id"),
    ('version = 0\nid = "p"\nrisk = "low"\n[[steps]]\nid = "S1"\nstage = "implement"\n'
     'verification_map = []\n', "steps[0] (S1).verification_map"),
    ('version = 1\nid = "p"\nrisk = "low"\n[[steps]]\nid = "S1"\nstage = "implement"\n'
     'dependencies = [{ step = "S0", requires = [-1] }]\n',
     "steps[0] (S1).dependencies[0].requires[0]"),
])
def test_shape_errors_are_config_errors_naming_the_field(text: str, where: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_plan(text.encode(), source="plan.toml")
    assert caught.value.message.startswith(f"plan.toml: {where}:"), caught.value.message
    assert caught.value.hint
