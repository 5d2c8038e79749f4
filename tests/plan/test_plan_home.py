"""Plans outside the state: `plan path` names a home in the git directory, `-` reads a plan
from stdin (kept there), and each step of the plan flow says which command comes next."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import git
from tests.plan.conftest import fixture, parse, plan_events

PLAN = fixture("atomic_step.toml")


def test_plan_path_is_inside_the_git_directory(plan_repo: Path, correx) -> None:
    result = correx(plan_repo, "plan", "path")
    assert result.code == 0, result
    home = Path(result.stdout.strip())
    assert home == plan_repo / ".git" / "correx" / "plans" and home.is_dir()
    assert json.loads(correx(plan_repo, "plan", "path", "--json").stdout) == {"path": str(home)}


def test_a_plan_in_the_plan_home_leaves_the_state_key_alone(plan_repo: Path, correx) -> None:
    before = correx(plan_repo, "state").stdout
    home = Path(correx(plan_repo, "plan", "path").stdout.strip())
    (home / "plan.toml").write_bytes(PLAN.read_bytes())
    assert correx(plan_repo, "state").stdout == before
    assert git(plan_repo, "status", "--porcelain") == ""


def test_plan_read_from_stdin_is_the_same_plan_as_the_file(plan_repo: Path, correx) -> None:
    result = correx(plan_repo, "plan", "authorize", "-", "--json", input=PLAN.read_bytes())
    assert result.code == 0, result
    assert parse(result)["authorized"]
    [event] = plan_events(plan_repo, PLAN)
    assert event.kind == "plan_authorized"
    kept = list((plan_repo / ".git" / "correx" / "plans").iterdir())
    assert [path.read_bytes() for path in kept] == [PLAN.read_bytes()]
    assert git(plan_repo, "status", "--porcelain") == ""


def test_json_plan_from_stdin_is_read_as_json(plan_repo: Path, correx) -> None:
    plan = fixture("atomic_step_reformatted.json")
    result = correx(plan_repo, "plan", "validate", "-", input=plan.read_bytes())
    assert result.code == 1, result  # read and judged: not authorized yet
    assert result.stdout.startswith("plan retry-delivery (")
    [kept] = (plan_repo / ".git" / "correx" / "plans").iterdir()
    assert kept.suffix == ".json"


def test_authorize_then_validate_each_say_what_comes_next(plan_repo: Path, cli) -> None:
    authorized = cli(plan_repo, "plan", "authorize", str(PLAN))
    assert authorized.code == 0, authorized
    assert authorized.stdout.splitlines()[-1] == f"next: git correx plan validate {PLAN}"
    validated = cli(plan_repo, "plan", "validate", str(PLAN))
    assert validated.code == 0, validated
    assert validated.stdout.splitlines()[-1] == f"next: git correx plan ground {PLAN}"
    grounded = cli(plan_repo, "plan", "ground", str(PLAN))
    assert grounded.code == 0, grounded
    assert grounded.stdout.splitlines()[-1] == f"next: git correx plan lock {PLAN}"
