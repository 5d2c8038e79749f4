"""`git correx plan authorize`: recorded, by a git identity, once per identity."""

from __future__ import annotations

from pathlib import Path

from gitcorrex.model.plan_events import PlanAuthorizedFields
from tests.conftest import IDENTITY_ENV, git, run_correx
from tests.plan.conftest import fixture, parse, plan_events

PLAN = fixture("atomic_step.toml")


def test_authorization_is_recorded_with_the_git_identity(plan_repo: Path, correx) -> None:
    result = correx(plan_repo, "plan", "authorize", str(PLAN), "--json")
    assert result.code == 0, result
    document = parse(result)
    assert document["authorized"] and document["recorded"]
    [event] = plan_events(plan_repo, PLAN)
    assert event.kind == "plan_authorized" and event.id == document["event"]["id"]
    fields = PlanAuthorizedFields.model_validate(event.model_extra)
    assert (fields.name, fields.email) == ("Ada Tester", "ada@example.test")
    assert (event.actor.name, event.actor.email) == ("Ada Tester", "ada@example.test")


def test_second_authorization_by_the_same_identity_is_not_recorded(plan_repo: Path,
                                                                   cli) -> None:
    assert cli(plan_repo, "plan", "authorize", str(PLAN)).code == 0
    again = cli(plan_repo, "plan", "authorize", str(PLAN))
    assert again.code == 0 and "already authorized by Ada Tester" in again.stdout
    assert len(plan_events(plan_repo, PLAN)) == 1


def test_structurally_invalid_plan_is_not_authorized(plan_repo: Path, cli) -> None:
    plan = fixture("empty_checks.toml")
    result = cli(plan_repo, "plan", "authorize", str(plan))
    assert result.code == 1, result
    assert "not authorized: reject" in result.stdout and "checks" in result.stdout
    assert plan_events(plan_repo, plan) == []


def test_authorization_needs_a_git_identity(plan_repo: Path, correx, tmp_path: Path) -> None:
    empty_home = tmp_path / "nobody"
    empty_home.mkdir()
    env = {"HOME": str(empty_home), "XDG_CONFIG_HOME": str(empty_home / ".config")}
    git(plan_repo, "config", "user.useConfigOnly", "true")
    result = run_correx(plan_repo, "plan", "authorize", str(PLAN), env=env, unset=IDENTITY_ENV)
    assert result.code == 2, result
    assert "user.name" in result.stderr
    assert plan_events(plan_repo, PLAN) == []


def test_an_identity_from_the_environment_authorizes(plan_repo: Path, tmp_path: Path) -> None:
    empty_home = tmp_path / "nobody"
    empty_home.mkdir()
    env = {"HOME": str(empty_home), "XDG_CONFIG_HOME": str(empty_home / ".config"),
           "GIT_AUTHOR_NAME": "CI Author", "GIT_AUTHOR_EMAIL": "ci@example.test",
           "GIT_COMMITTER_NAME": "CI Bot", "GIT_COMMITTER_EMAIL": "bot@example.test"}
    result = run_correx(plan_repo, "plan", "authorize", str(PLAN), env=env, unset=IDENTITY_ENV)
    assert result.code == 0, result
    [event] = plan_events(plan_repo, PLAN)
    fields = PlanAuthorizedFields.model_validate(event.model_extra)
    assert (fields.name, fields.email) == ("CI Author", "ci@example.test")
