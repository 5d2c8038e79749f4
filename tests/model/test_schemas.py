"""The committed JSON Schemas match the models, and real events validate against them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.model.schemas import all_schemas
from tests.conftest import CliResult

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.mark.parametrize("name", sorted(all_schemas()))
def test_committed_schema_is_current(name: str) -> None:
    committed = json.loads((SCHEMAS / name).read_text())
    assert committed == all_schemas()[name], "run `python schemas/generate.py` and commit"


def test_every_committed_schema_is_generated() -> None:
    on_disk = {path.name for path in SCHEMAS.glob("*.json")}
    assert on_disk == set(all_schemas())


def test_schema_names_every_envelope_field() -> None:
    schema = all_schemas()["workspace_verification_observed.v1.json"]
    for field in ("v", "id", "kind", "at", "subjects", "session", "seq", "stage", "step",
                  "state_key", "actor", "tool", "result", "commands", "state_after"):
        assert field in schema["properties"]
    assert schema["properties"]["kind"]["const"] == "workspace_verification_observed"
    assert schema["additionalProperties"] is False


def test_a_recorded_observation_fits_its_schema_exactly(
    make_repo: Callable[..., Path], correx: Callable[..., CliResult]
) -> None:
    from gitcorrex.model.schemas import KIND_FIELDS, _merge

    repo = make_repo(files={".correx.toml": 'version = 1\n[commands]\nok = "true"\n'
                                            '[expectations]\nok = ["ok"]\n'})
    assert correx(repo, "verify", "--expect", "ok", "--quiet").code == 0
    shown = correx(repo, "show", "--json")
    event = json.loads(shown.stdout)["events"][0]
    kind = event["kind"]
    _merge(kind, KIND_FIELDS[kind]).model_validate(event)  # extra="forbid": nothing undocumented


def test_committed_kind_names_are_current() -> None:
    """The light read paths' copy of the kind names is generated, never edited."""
    from gitcorrex.model.schemas import kind_names_source

    committed = (SCHEMAS.parent / "gitcorrex" / "model" / "kind_names.py").read_text()
    assert committed == kind_names_source(), "run `python schemas/generate.py`"
