"""Guarded plans need an outside audit (seed 003 §4.2), as real processes with real identities.

The proofs in the plan file are obligations; the audit is `plan audit` by a git identity
other than the plan's authorizer, covering every obligation.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.plan.conftest import fixture

GRACE = {"GIT_AUTHOR_NAME": "Grace Auditor", "GIT_AUTHOR_EMAIL": "grace@example.test",
         "GIT_COMMITTER_NAME": "Grace Auditor", "GIT_COMMITTER_EMAIL": "grace@example.test"}
GUARDED = "compatible_root_reuse.toml"


def validate(correx, root: Path, name: str) -> tuple[int, dict]:
    result = correx(root, "plan", "validate", str(fixture(name)), "--json")
    assert result.code in (0, 1), result
    return result.code, json.loads(result.stdout)


def codes(document: dict) -> list[str]:
    return [f["code"] for f in document["findings"]]


def test_guarded_plan_is_refused_without_an_audit(plan_repo: Path, correx) -> None:
    assert correx(plan_repo, "plan", "authorize", str(fixture(GUARDED))).code == 0
    code, document = validate(correx, plan_repo, GUARDED)
    assert code == 1 and document["decision"] == "stop-escalate"
    assert codes(document) == ["audit_missing"]
    assert "obligations, not an audit" in document["findings"][0]["message"]


def test_guarded_plan_is_refused_with_an_audit_by_its_authorizer(plan_repo: Path,
                                                                 correx) -> None:
    assert correx(plan_repo, "plan", "audit", str(fixture(GUARDED))).code == 0  # Ada audits
    assert correx(plan_repo, "plan", "authorize", str(fixture(GUARDED))).code == 0  # and authorizes
    code, document = validate(correx, plan_repo, GUARDED)
    assert code == 1 and codes(document) == ["audit_not_independent"]
    assert "Ada Tester <ada@example.test>" in document["findings"][0]["message"]
    again = correx(plan_repo, "plan", "audit", str(fixture(GUARDED)), "--json")
    assert again.code == 1, again  # the authorizer's audit is refused from now on
    refused = json.loads(again.stdout)
    assert not refused["audited"] and codes(refused) == ["audit_by_authorizer"]


def test_guarded_plan_is_accepted_with_an_audit_by_another_identity(plan_repo: Path,
                                                                    correx) -> None:
    assert correx(plan_repo, "plan", "authorize", str(fixture(GUARDED))).code == 0
    audited = correx(plan_repo, "plan", "audit", str(fixture(GUARDED)), "--note", "read it",
                     env=GRACE)
    assert audited.code == 0 and "audited by Grace Auditor" in audited.stdout, audited
    code, document = validate(correx, plan_repo, GUARDED)
    assert code == 0 and document["decision"] == "accepted", document
    assert document["authority"]["kind"] == "risk_audit"
    assert document["authority"]["email"] == "grace@example.test"


def test_same_email_under_another_name_is_not_an_outside_auditor(plan_repo: Path,
                                                                 correx) -> None:
    assert correx(plan_repo, "plan", "authorize", str(fixture(GUARDED))).code == 0
    alias = {**GRACE, "GIT_AUTHOR_EMAIL": "ADA@example.test"}
    result = correx(plan_repo, "plan", "audit", str(fixture(GUARDED)), "--json", env=alias)
    assert result.code == 1, result
    assert codes(json.loads(result.stdout)) == ["audit_by_authorizer"]


def test_guarded_plan_needs_its_authorization_too(plan_repo: Path, correx) -> None:
    assert correx(plan_repo, "plan", "audit", str(fixture(GUARDED)), env=GRACE).code == 0
    code, document = validate(correx, plan_repo, GUARDED)
    assert code == 1 and codes(document) == ["authorization_missing"]


def test_an_audit_must_cover_every_obligation(plan_repo: Path, correx) -> None:
    name = "guarded_two_proofs.toml"
    assert correx(plan_repo, "plan", "authorize", str(fixture(name))).code == 0
    partial = correx(plan_repo, "plan", "audit", str(fixture(name)), "--proof",
                     "deliver=double delivery", env=GRACE)
    assert partial.code == 0, partial
    code, document = validate(correx, plan_repo, name)
    assert code == 1 and codes(document) == ["audit_incomplete"]
    assert '"lost ack" of step deliver' in document["findings"][0]["message"]
    assert correx(plan_repo, "plan", "audit", str(fixture(name)), env=GRACE).code == 0
    assert validate(correx, plan_repo, name)[0] == 0


def test_audit_names_an_unknown_obligation(plan_repo: Path, correx) -> None:
    result = correx(plan_repo, "plan", "audit", str(fixture(GUARDED)), "--proof",
                    "reuse=nothing", env=GRACE)
    assert result.code == 2 and "'reuse=nothing' is not a proof obligation" in result.stderr
    assert "reuse=a compatible-root hit extracts or persists again" in result.stderr


def test_a_low_risk_plan_has_no_risk_audit(plan_repo: Path, correx) -> None:
    result = correx(plan_repo, "plan", "audit", str(fixture("compatible_schema.toml")),
                    env=GRACE)
    assert result.code == 1 and "is low risk" in result.stdout, result
