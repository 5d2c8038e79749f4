"""Seed 003 §4.5: legacy plans (version 0) stay readable and keep their identity; only an
authorization recorded before they were first validated lets them run, with a diagnostic."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from gitcorrex.plan.load import load_plan
from tests.plan.conftest import codes, fixture, ground, parse, record, verified

LEGACY = fixture("legacy_plan.toml")


def historical_authorization(root: Path, *, at: datetime | None = None) -> str:
    """An authorization recorded by earlier tooling, before any validation of the plan."""
    return record(root, "plan_authorized", LEGACY, at=at, name="Grace Legacy",
                  email="grace@example.test").id


def test_legacy_plan_without_prior_authorization_is_rejected(plan_repo: Path, cli) -> None:
    result = cli(plan_repo, "plan", "validate", str(LEGACY), "--json")
    assert result.code == 1, result
    document = parse(result)
    assert document["decision"] == "reject" and document["version"] == 0
    assert codes(document) == {(None, "legacy_unauthorized")}


def test_legacy_plan_authorized_before_validation_runs_with_a_diagnostic(plan_repo: Path,
                                                                          cli) -> None:
    authorization = historical_authorization(plan_repo)
    result = cli(plan_repo, "plan", "validate", str(LEGACY), "--json")
    assert result.code == 0, result
    document = parse(result)
    assert document["plan"] == load_plan(LEGACY).identity
    assert document["authority"] == {"kind": "legacy_authorization", "event": authorization,
                                     "name": "Grace Legacy", "email": "grace@example.test"}
    [note] = document["diagnostics"]
    assert "verification_map was not enforced" in note
    text = cli(plan_repo, "plan", "validate", str(LEGACY))
    assert text.code == 0 and "note: legacy plan (version 0)" in text.stdout


def test_legacy_authorized_plan_can_be_locked(plan_repo: Path, cli) -> None:
    historical_authorization(plan_repo)
    assert cli(plan_repo, "plan", "validate", str(LEGACY)).code == 0
    ground(plan_repo, LEGACY)
    verified(cli, plan_repo)
    assert cli(plan_repo, "plan", "lock", str(LEGACY)).code == 0


def test_authorization_recorded_after_first_validation_does_not_grandfather(
        plan_repo: Path, cli) -> None:
    assert cli(plan_repo, "plan", "validate", str(LEGACY)).code == 1
    later = datetime.now(timezone.utc) + timedelta(seconds=5)
    historical_authorization(plan_repo, at=later)
    document = parse(cli(plan_repo, "plan", "validate", str(LEGACY), "--json"))
    assert document["decision"] == "reject"
    assert codes(document) == {(None, "legacy_unauthorized")}


def test_legacy_plan_cannot_be_authorized_anew(plan_repo: Path, cli) -> None:
    result = cli(plan_repo, "plan", "authorize", str(LEGACY), "--json")
    assert result.code == 1, result
    document = parse(result)
    assert not document["authorized"] and document["decision"] == "reject"
    assert {f["code"] for f in document["findings"]} == {"legacy_unauthorized"}
