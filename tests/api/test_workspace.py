"""`gitcorrex.api.Workspace`: the same answers as the CLI, as typed models, in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitcorrex.api import ShowResult, StateResult, VerifyResult, Workspace
from gitcorrex.errors import ConfigError, UsageError
from tests.agents.conftest import project  # noqa: F401  (the committed project fixture)
from tests.conftest import run_correx, write


def test_state_key_equals_the_cli(project: Path) -> None:  # noqa: F811
    write(project, "src/new.py", "x = 1\n")
    state = Workspace(project / "src").state()
    assert isinstance(state, StateResult)
    assert state.model_dump(mode="json") == json.loads(
        run_correx(project, "state", "--json").stdout)
    assert state.dirty


def test_verify_returns_the_recorded_observation(project: Path) -> None:  # noqa: F811
    write(project, "src/app.py", "VALUE = 2\n")
    outcome = Workspace(project).verify(stage="implement")
    assert isinstance(outcome, VerifyResult)
    assert (outcome.result, outcome.expectation) == ("pass", "check")
    assert outcome.event is not None and outcome.event.state_key == outcome.state_key
    shown = json.loads(run_correx(project, "show", "--json").stdout)
    assert [event["id"] for event in shown["events"]] == [outcome.event.id]
    assert Workspace(project).show() == ShowResult.model_validate(shown)


def test_a_failing_verify_is_a_result_not_an_exception(project: Path) -> None:  # noqa: F811
    write(project, "src/app.py", "FAIL\n")
    outcome = Workspace(project).verify(stage="implement")
    assert outcome.result == "fail"


def test_verify_json_is_the_api_model(project: Path) -> None:  # noqa: F811
    result = run_correx(project, "verify", "--stage", "implement", "--json")
    assert result.code == 0, result
    VerifyResult.model_validate(json.loads(result.stdout))


def test_assess_write_judges_like_the_cli(project: Path) -> None:  # noqa: F811
    outcome = Workspace(project).assess_write(["docs/x.md", "src/ok.py"], stage="implement")
    assert [(p.path, p.verdict.value) for p in outcome.paths] == [("docs/x.md", "BLOCK"),
                                                                 ("src/ok.py", "ALLOW")]
    assert outcome.event is not None


def test_errors_carry_their_exit_code_and_hint(project: Path) -> None:  # noqa: F811
    with pytest.raises(ConfigError) as raised:
        Workspace(project).verify(expect="no-such")
    assert raised.value.exit_code == 2
    with pytest.raises(UsageError):
        Workspace(project).session()


def test_gate_equals_the_cli_document(project: Path) -> None:  # noqa: F811
    result = run_correx(project, "gate", "--stage", "implement", "--json")
    assert result.code == 0, result
    cli = json.loads(result.stdout)
    api = Workspace(project).gate(stage="implement").model_dump(mode="json")
    assert (api["passed"], api["stage"], api["state_key"]) == (True, "implement",
                                                               cli["state_key"])
    assert api == cli


def test_step_start_without_a_session_is_refused(project: Path) -> None:  # noqa: F811
    with pytest.raises(UsageError):
        Workspace(project).step_start("S1")
