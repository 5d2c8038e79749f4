"""Semantic terminal pauses: a typed claim, a trusted provider observing outside the append
loop, freshness at the decision time, exact values, and a context unchanged at the CAS."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from gitcorrex.errors import RevisionConflictError
from gitcorrex.git.repository import discover
from gitcorrex.ledger.provenance import current_provenance
from gitcorrex.model.session_claims import BlockerClaim, ClaimOutcome, ProviderObservation
from gitcorrex.session.claims import admit_claim
from gitcorrex.session.exact_equality import exactly_equal, load_exact_json
from gitcorrex.session.providers import ObserveContext, VerificationProvider
from tests.conftest import write
from tests.session.conftest import append, state_key, status


@pytest.fixture
def failing(locked: tuple[Path, str], cli) -> tuple[Path, str, str]:
    """S1 active and observed failing (exit code 1) on the current state key."""
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "BUG\n")
    assert cli(root, "verify", "-q").code == 1
    return root, session, state_key(root)


def claim_file(tmp_path: Path, **fields: Any) -> str:
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(fields) if "raw" not in fields else fields["raw"])
    return str(path)


def claim(key: str, fact: str = "exit_code", expected: Any = 1, **more: Any) -> dict[str, Any]:
    return {"class": "observed_fact", "provider": "verification", "subject": key,
            "fact": fact, "expected": expected, **more}


def pause_on(cli, root: Path, tmp_path: Path, fields: dict[str, Any]) -> tuple[int, dict]:
    result = cli(root, "pause", "--claim", claim_file(tmp_path, **fields), "--json")
    return result.code, json.loads(result.stdout) if result.stdout else {}


def test_confirmed_claim_pauses_with_a_bounded_receipt(failing, cli, tmp_path) -> None:
    root, session, key = failing
    code, out = pause_on(cli, root, tmp_path, claim(key))
    assert (code, out["outcome"]) == (0, "confirmed")
    pause = status(cli, root, session)["state"]["pause"]
    assert pause["cause"] == "semantic_terminal"
    receipt = pause["receipt"]
    assert receipt["expected"] == 1 and receipt["revision"] == 6
    [seen] = receipt["observations"]
    assert (seen["provider"], seen["version"], seen["value"]) == ("verification", "1", 1)
    assert f"state={key}" in receipt["context"]
    resume = cli(root, "resume", "--reason", "no")
    assert resume.code == 1 and "re-plan" in resume.stderr


@pytest.mark.parametrize("expected", [0, True, 1.0, "1", None])
def test_a_different_value_or_type_is_contradicted(failing, cli, tmp_path, expected) -> None:
    root, session, key = failing
    code, out = pause_on(cli, root, tmp_path, claim(key, expected=expected))
    assert (code, out["outcome"]) == (1, "contradicted")
    assert status(cli, root, session)["state"]["revision"] == 6  # nothing written


@pytest.fixture
def passing(locked: tuple[Path, str], cli) -> tuple[Path, str, str]:
    """No step started yet; the session observed the current state key passing (exit 0)."""
    root, session = locked
    observed = cli(root, "verify", "--expect", "test", "--session", session, "-q")
    assert observed.code == 0, observed
    return root, session, state_key(root)


def test_a_claim_file_expecting_minus_zero_is_not_the_exit_code_0_observed(
        passing, correx, tmp_path) -> None:
    """`-0` in the claim file is the float -0.0 (load_exact_json), which Object.is tells from
    the integer 0 the provider observed: contradicted, and nothing is written."""
    root, session, key = passing
    text = json.dumps(claim(key)).replace('"expected": 1', '"expected": -0')
    assert '"expected": -0' in text
    result = correx(root, "pause", "--claim", claim_file(tmp_path, raw=text), "--json")
    assert result.code == 1, result
    document = json.loads(result.stdout)
    assert (document["outcome"], document["observation"]["value"]) == ("contradicted", 0)
    assert status(correx, root, session)["state"]["pause"] is None


def test_result_and_stop_reason_facts_are_observed(failing, cli, tmp_path) -> None:
    root, _, key = failing
    assert pause_on(cli, root, tmp_path, claim(key, "result", "pass"))[1]["outcome"] == \
        "contradicted"
    code, out = pause_on(cli, root, tmp_path, claim(key, "stop_reason", "exit"))
    assert (code, out["outcome"]) == (0, "confirmed")


def test_raw_output_is_not_a_fact_and_another_state_is_unresolved(failing, cli,
                                                                  tmp_path) -> None:
    root, _, key = failing
    assert pause_on(cli, root, tmp_path, claim(key, "output", "BUG"))[1]["outcome"] == \
        "unresolved"
    other = "0" * 40
    code, out = pause_on(cli, root, tmp_path, claim(other))
    assert (code, out["outcome"]) == (1, "unresolved")


def test_user_authority_fails_closed(failing, cli, tmp_path) -> None:
    root, session, key = failing
    fields = {**claim(key), "class": "user_authority"}
    code, out = pause_on(cli, root, tmp_path, fields)
    assert (code, out["outcome"]) == (1, "requires_user_authority")
    assert status(cli, root, session)["state"]["pause"] is None


def test_an_unknown_provider_is_unresolved(failing, cli, tmp_path) -> None:
    root, _, key = failing
    code, out = pause_on(cli, root, tmp_path, {**claim(key), "provider": "oracle"})
    assert (code, out["outcome"]) == (1, "unresolved") and "no trusted provider" in out["detail"]


def test_an_expired_observation_is_unresolved(failing, cli, tmp_path) -> None:
    root, session, key = failing
    code, out = pause_on(cli, root, tmp_path, claim(key, max_age_s=0))
    assert (code, out["outcome"]) == (1, "unresolved") and out["detail"].startswith("expired")
    assert status(cli, root, session)["state"]["pause"] is None


@pytest.mark.parametrize("field", ["subject", "expected", "fact"])
def test_strings_over_1024_characters_are_refused(failing, cli, tmp_path, field) -> None:
    root, session, key = failing
    fields = claim(key)
    fields[field] = "x" * 1025
    result = cli(root, "pause", "--claim", claim_file(tmp_path, **fields))
    assert result.code == 2 and "1024" in result.stderr
    assert status(cli, root, session)["state"]["revision"] == 6


def test_unknown_claim_keys_are_refused(failing, cli, tmp_path) -> None:
    root, _, key = failing
    result = cli(root, "pause", "--claim", claim_file(tmp_path, **claim(key), note="x"))
    assert result.code == 2


class _MovingProvider(VerificationProvider):
    """Observes truthfully, but one dimension of the context moves while it does."""

    def __init__(self, root: Path, moves: str) -> None:
        self.root, self.moves = root, moves

    def observe(self, context: ObserveContext,
                claim: BlockerClaim) -> ProviderObservation | None:
        seen = super().observe(context, claim)
        if self.moves == "revision":
            append(self.root, "precondition_clarified", context.session,
                   {"path": "x", "reason": "moved while the provider observed"})
        elif self.moves == "ledger_tip":
            append(self.root, "session_started", "another-session",
                   {"plan": "0" * 40, "plan_id": "other", "steps": []})
        else:
            write(self.root, "src/late.py", "LATE = 1\n")
        return seen


@pytest.mark.parametrize("moves", ["revision", "ledger_tip", "state_key"])
def test_a_context_changed_between_observation_and_write_is_stale(failing, cli,
                                                                  moves) -> None:
    root, session, key = failing
    repo = discover(root)
    with pytest.raises(RevisionConflictError, match="stale claim"):
        admit_claim(repo, session, BlockerClaim.model_validate(claim(key)),
                    expect_revision=None, clock=lambda: datetime.now(timezone.utc),
                    provenance=current_provenance(repo),
                    providers={"verification": _MovingProvider(root, moves)})
    state = status(cli, root, session)["state"]
    assert state["pause"] is None
    assert state["revision"] == (7 if moves == "revision" else 6)


def test_confirmation_via_the_use_case_records_one_pause(failing) -> None:
    root, session, key = failing
    repo = discover(root)
    decision = admit_claim(repo, session, BlockerClaim.model_validate(claim(key)),
                           expect_revision=6, clock=lambda: datetime.now(timezone.utc),
                           provenance=current_provenance(repo))
    assert decision.outcome is ClaimOutcome.CONFIRMED
    assert [e.kind for e in decision.events] == ["transition_admitted", "session_paused"]


def test_exact_comparison_follows_object_is() -> None:
    assert exactly_equal(0, 0) and exactly_equal("a", "a") and exactly_equal(None, None)
    assert not exactly_equal(0.0, -0.0)
    assert not exactly_equal(0, load_exact_json("-0"))
    assert exactly_equal(float("nan"), float("nan"))  # Object.is(NaN, NaN)
    assert not exactly_equal(float("nan"), 0.0) and not exactly_equal(0.0, float("nan"))
    assert not exactly_equal(1, True) and not exactly_equal(1, 1.0)
    assert exactly_equal([1, {"a": "b"}], [1, {"a": "b"}])
    assert not exactly_equal([1], [True])
