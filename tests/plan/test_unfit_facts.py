"""A plan fact whose line does not fit its payload class counts for nothing (plan/decision.py,
plan/lock_checks.py, plan/split.py), through the installed `git correx` console script.

Each test records the fact with the real command, then rewrites its line through `git notes`
with one field that does not fit (the line stays canonical, its id recomputed), as a careless
or foreign writer could: the line is no validation, authorization, audit, grounding or split
route.
"""

from __future__ import annotations

from pathlib import Path

from gitcorrex.plan.load import load_plan
from tests.conftest import CliResult
from tests.console_script import git_correx as correx
from tests.plan.conftest import fixture, parse
from tests.unfit_lines import unfit

PLAN = fixture("atomic_step.toml")


def ok(root: Path, *args: str, env: dict[str, str] | None = None) -> CliResult:
    result = correx(root, *args, env=env)
    assert result.code == 0, result
    return result


def unfit_plan_line(root: Path, kind: str, **fields: object) -> None:
    """Rewrite the plan note's `kind` line with `fields` that do not fit its class."""
    unfit(root, load_plan(PLAN).identity, kind, **fields)


def lock_missing(root: Path) -> dict[str, str]:
    """Ground and verify the current state, then `plan lock`: code → message of each
    missing fact."""
    ok(root, "plan", "ground", str(PLAN))
    ok(root, "verify", "--expect", "full", "--quiet")
    result = correx(root, "plan", "lock", str(PLAN), "--json")
    assert result.code == 1, result
    document = parse(result)
    assert not document["locked"] and document["events"] == []
    return {m["code"]: m["message"] for m in document["missing"]}


def test_a_validation_line_that_does_not_fit_does_not_count_as_validated(
        plan_repo: Path) -> None:
    ok(plan_repo, "plan", "authorize", str(PLAN))
    ok(plan_repo, "plan", "validate", str(PLAN))
    unfit_plan_line(plan_repo, "plan_validated", execution_started="maybe")  # a bool field
    missing = lock_missing(plan_repo)
    assert set(missing) == {"validation_missing"}
    assert "1 plan_validated line(s) on the plan's note do not fit" in \
        missing["validation_missing"] and "execution_started" in missing["validation_missing"]


def test_an_authorization_line_that_does_not_fit_does_not_authorize(plan_repo: Path) -> None:
    ok(plan_repo, "plan", "authorize", str(PLAN))
    unfit_plan_line(plan_repo, "plan_authorized", plan_id=["atomic"])  # a string field
    result = correx(plan_repo, "plan", "validate", str(PLAN), "--json")
    assert result.code == 1, result
    document = parse(result)
    assert document["decision"] == "stop-escalate" and document["authority"] is None
    assert [f["code"] for f in document["findings"]] == ["authorization_missing"]
    again = ok(plan_repo, "plan", "authorize", str(PLAN), "--json")
    assert parse(again)["recorded"], again  # not "already authorized" by the unfit line


def test_a_grounding_line_that_does_not_fit_is_no_grounding(plan_repo: Path) -> None:
    ok(plan_repo, "plan", "authorize", str(PLAN))
    ok(plan_repo, "plan", "validate", str(PLAN))
    ok(plan_repo, "plan", "ground", str(PLAN))
    unfit_plan_line(plan_repo, "plan_grounding_evaluated", extractors="python")  # a mapping field
    ok(plan_repo, "verify", "--expect", "full", "--quiet")
    result = correx(plan_repo, "plan", "lock", str(PLAN), "--json")
    assert result.code == 1, result
    assert {m["code"] for m in parse(result)["missing"]} == {"grounding_missing"}


def test_a_split_route_line_that_does_not_fit_is_treated_as_absent(plan_repo: Path) -> None:
    ok(plan_repo, "plan", "authorize", str(PLAN))
    step = load_plan(PLAN).plan.steps[0].id
    ok(plan_repo, "plan", "route", str(PLAN), "--step", step, "--split", "--reason", "too big")
    unfit_plan_line(plan_repo, "plan_routed", reason="")  # a reason is never empty
    result = correx(plan_repo, "plan", "validate", str(PLAN), "--json")
    assert result.code == 0, result
    assert parse(result)["decision"] == "accepted"


def test_a_risk_audit_line_that_does_not_fit_is_no_audit(plan_repo: Path) -> None:
    guarded = fixture("compatible_root_reuse.toml")
    grace = {"GIT_AUTHOR_NAME": "Grace Auditor", "GIT_AUTHOR_EMAIL": "grace@example.test"}
    ok(plan_repo, "plan", "authorize", str(guarded))
    ok(plan_repo, "plan", "audit", str(guarded), env=grace)
    unfit(plan_repo, load_plan(guarded).identity, "plan_risk_audited", note="x" * 2000)
    result = correx(plan_repo, "plan", "validate", str(guarded), "--json")
    assert result.code == 1, result
    document = parse(result)
    assert document["decision"] == "stop-escalate" and document["authority"] is None
    assert [f["code"] for f in document["findings"]] == ["audit_missing"]
