"""Layer 3 of the operator decisions: with `correx.requireSignedDecisions`, a decision counts
only from a ledger commit signed by a key in the allowed signers. The person's key is in
`gpg.ssh.allowedSignersFile`; the agent signs with a key of its own (or not at all), as an
agent with a shell can, and its decisions are reported, not counted. Real ssh signing."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git, run_correx, write
from tests.review.test_signatures import configure_signing, ssh_key
from tests.session.conftest import (
    THREE_STEPS,
    append,
    lock_ready,
    state_key,
    status,
    steps_of,
)
from tests.session.test_review import GRACE, SESSION, guarded, review, settle_s1  # noqa: F401

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
Cli = Callable[..., CliResult]
UNTRUSTED = "signed by a key git does not trust"


def overriding(**config: str) -> dict[str, str]:
    """git configuration for one process only (GIT_CONFIG_COUNT): what an agent's shell can
    give the commands it runs, whatever the repository's configuration says."""
    env = {"GIT_CONFIG_COUNT": str(len(config))}
    for at, (key, value) in enumerate(config.items()):
        env[f"GIT_CONFIG_KEY_{at}"], env[f"GIT_CONFIG_VALUE_{at}"] = key, value
    return env


@pytest.fixture
def agent_key(project: Path, tmp_path: Path) -> dict[str, str]:
    """Signed decisions required; the person signs with the allowed key; the agent's
    processes sign with a key of their own (returned: their environment)."""
    configure_signing(project, ssh_key(tmp_path, "person"), tmp_path)
    git(project, "config", "correx.requireSignedDecisions", "true")
    return overriding(**{"user.signingKey": str(ssh_key(tmp_path, "agent"))})


def switched_off(agent: dict[str, str]) -> dict[str, str]:
    """The agent's environment with signed decisions switched off for its processes."""
    return overriding(**{"user.signingKey": agent["GIT_CONFIG_VALUE_0"],
                         "correx.requireSignedDecisions": "false"})


def as_agent(root: Path, env: dict[str, str], *args: str) -> CliResult:
    return run_correx(root, *args, env=env)


def test_an_authorization_signed_by_an_untrusted_key_does_not_count(
        project: Path, plans: Callable[..., Path], agent_key: dict[str, str], cli: Cli) -> None:
    plan = str(plans("v1", THREE_STEPS))
    assert as_agent(project, agent_key, "plan", "authorize", plan).code == 0
    refused = cli(project, "plan", "validate", plan)
    assert refused.code == 1 and "stop-escalate" in refused.stdout, refused
    assert "plan_authorized" in refused.stdout and UNTRUSTED in refused.stdout
    believed = run_correx(project, "plan", "validate", plan,
                          env=overriding(**{"correx.requireSignedDecisions": "false"}))
    assert believed.code == 0, believed  # the same ledger, decisions not required signed
    mine = cli(project, "plan", "authorize", plan, "--json")
    assert mine.code == 0 and json.loads(mine.stdout)["recorded"] is True, mine
    assert cli(project, "plan", "validate", plan).code == 0


def test_an_unsigned_decision_recorded_with_the_switch_overridden_does_not_count(
        project: Path, plans: Callable[..., Path], agent_key: dict[str, str], cli: Cli) -> None:
    plan = str(plans("v1", THREE_STEPS))
    off = overriding(**{"correx.requireSignedDecisions": "false", "correx.sign": "false"})
    assert run_correx(project, "plan", "authorize", plan, env=off).code == 0
    refused = cli(project, "plan", "validate", plan)
    assert refused.code == 1 and "is unsigned" in refused.stdout, refused


def test_a_person_without_signing_is_told_before_anything_is_recorded(
        project: Path, plans: Callable[..., Path], agent_key: dict[str, str]) -> None:
    git(project, "config", "correx.sign", "false")
    result = run_correx(project, "plan", "authorize", str(plans("v1", THREE_STEPS)))
    assert result.code == 2 and "correx.sign" in result.stderr, result
    assert git(project, "for-each-ref", "refs/notes/correx").strip() == ""


def test_a_lock_needs_the_validation_to_rest_on_a_counted_decision(
        project: Path, plans: Callable[..., Path], agent_key: dict[str, str], cli: Cli) -> None:
    """An agent authorizes and validates with the switch off for its own processes: the
    validation is accepted, and the person's lock still refuses it."""
    plan = str(plans("v1", THREE_STEPS))
    for command in ("authorize", "validate"):
        done = run_correx(project, "plan", command, plan, env=switched_off(agent_key))
        assert done.code == 0, done
    assert cli(project, "plan", "ground", plan).code == 0
    assert cli(project, "verify", "--expect", "test", "--quiet").code == 0
    refused = cli(project, "plan", "lock", plan)
    assert refused.code == 1 and "authority_not_counted" in refused.stdout, refused
    assert UNTRUSTED in refused.stdout
    assert cli(project, "plan", "authorize", plan).code == 0  # the person's, signed
    assert cli(project, "plan", "validate", plan).code == 0
    assert cli(project, "plan", "lock", plan).code == 0


@pytest.fixture
def session(project: Path, plans: Callable[..., Path], agent_key: dict[str, str],
            cli: Cli) -> str:
    """The three-step plan locked by the person, every decision signed; the session id."""
    result = lock_ready(cli, project, plans("v1", THREE_STEPS), "--session", "run-1")
    assert result.code == 0, result
    return "run-1"


def test_a_resume_by_an_untrusted_key_leaves_the_session_paused(
        project: Path, session: str, agent_key: dict[str, str], cli: Cli) -> None:
    assert cli(project, "pause", "--kind", "administrative", "--reason", "hold").code == 0
    assert as_agent(project, agent_key, "resume", "--reason", "go on").code == 0
    document = status(cli, project, session)
    assert document["state"]["status"] == "paused"
    [named] = document["uncounted_decisions"]
    assert named.startswith("session_resumed") and UNTRUSTED in named
    assert "not counted: session_resumed" in cli(project, "session", "status").stdout
    refused = cli(project, "step", "start", "S1")
    assert refused.code == 1 and "paused" in refused.stderr, refused
    assert "session_resumed" in refused.stderr and "does not count" in refused.stderr
    assert cli(project, "resume", "--reason", "the person resumes").code == 0
    assert cli(project, "step", "start", "S1").code == 0


def test_a_clarification_by_an_untrusted_key_leaves_the_precondition_open(
        project: Path, session: str, agent_key: dict[str, str], cli: Cli) -> None:
    key = state_key(project)
    append(project, "workspace_precondition_failed", session,
           {"path": "Makefile", "source": "profile_requires", "named_by": "test",
            "attempts": 3, "blocks": []}, step="S1", state_key=key, subjects=(key,))
    assert as_agent(project, agent_key, "session", "clarify", "Makefile",
                    "--reason", "not needed").code == 0
    document = status(cli, project, session)
    assert [p["path"] for p in document["state"]["preconditions"]] == ["Makefile"]
    assert document["state"]["clarified"] == []
    assert cli(project, "step", "start", "S2").code == 1


def test_an_unverified_baseline_locked_by_an_untrusted_key_starts_nothing(
        project: Path, plans: Callable[..., Path], agent_key: dict[str, str], cli: Cli) -> None:
    plan = str(plans("v1", THREE_STEPS))
    for command in ("authorize", "validate", "ground"):
        assert cli(project, "plan", command, plan).code == 0
    locked = as_agent(project, agent_key, "plan", "lock", plan, "--session", "run-1",
                      "--baseline-unverified", "--reason", "trust me")
    assert locked.code == 0, locked
    refused = cli(project, "step", "start", "S1")
    assert refused.code == 1 and "carries no passing observation" in refused.stderr, refused
    assert "plan_locked" in refused.stderr and UNTRUSTED in refused.stderr
    assert cli(project, "verify", "--expect", "test", "--quiet").code == 0
    assert cli(project, "step", "start", "S1").code == 0


def test_a_route_by_an_untrusted_key_does_not_stop_the_step(
        project: Path, session: str, agent_key: dict[str, str], cli: Cli,
        plans: Callable[..., Path]) -> None:
    routed = as_agent(project, agent_key, "plan", "route", str(plans("v1", THREE_STEPS)),
                      "--step", "S1", "--split", "--reason", "too big")
    assert routed.code == 0, routed
    assert cli(project, "step", "start", "S1").code == 0


def test_a_review_signed_by_an_untrusted_key_verifies_nothing(
        guarded: Path, tmp_path: Path, correx: Cli) -> None:  # noqa: F811 (the fixture)
    """The review's `step_verified` is recorded with it, in one append: it counts no more
    than the review it follows. A person's signed review then decides the step."""
    assert settle_s1(correx, guarded).code == 0
    configure_signing(guarded, ssh_key(tmp_path, "person"), tmp_path)
    git(guarded, "config", "correx.requireSignedDecisions", "true")
    agent = {**overriding(**{"user.signingKey": str(ssh_key(tmp_path, "agent"))}), **GRACE}
    assert review(correx, guarded, "approve", env=agent).code == 0  # recorded, not counted
    assert steps_of(status(correx, guarded, SESSION))["S1"] == ("awaiting_review", 1)
    shown = correx(guarded, "session", "status", "--json")
    assert "step_reviewed" in " ".join(json.loads(shown.stdout)["uncounted_decisions"])
    assert correx(guarded, "step", "start", "S2").code == 1
    assert review(correx, guarded, "approve", env=GRACE).code == 0  # the person's key
    assert steps_of(status(correx, guarded, SESSION))["S1"] == ("verified", 1)


def test_an_adoption_signed_by_an_untrusted_key_adopts_nothing(
        project: Path, session: str, agent_key: dict[str, str], cli: Cli) -> None:
    write(project, "README.md", "edited between steps\n")
    adopted = as_agent(project, agent_key, "session", "adopt", "--session", session,
                       "--reason", "mine")
    assert adopted.code == 0, adopted  # recorded, not counted
    shown = cli(project, "session", "status", session, "--json")
    assert "changes_adopted" in " ".join(json.loads(shown.stdout)["uncounted_decisions"])
    refused = cli(project, "step", "start", "S1", "--session", session)
    assert refused.code == 1 and "README.md" in refused.stderr + refused.stdout, refused


def test_a_forged_stored_fold_resumes_nothing(
        project: Path, session: str, agent_key: dict[str, str], cli: Cli) -> None:
    """The fold store (`.git/correx/folds/`) is a cache the agent can write: with signed
    decisions required, a state written there by hand (the session resumed without any
    decision) is never read; the session is folded from the ledger."""
    from gitcorrex.git.note_reads import note_blob_ids
    from gitcorrex.model.session_object import session_object_oid

    assert cli(project, "pause", "--kind", "administrative", "--reason", "hold").code == 0
    assert status(cli, project, session)["state"]["status"] == "paused"
    subject = session_object_oid(session)
    blobs = note_blob_ids(project, "refs/notes/correx", subject)
    stored = project / ".git" / "correx" / "folds" / f"{subject}.json"
    record = json.loads(stored.read_text())
    assert record["key"][-1] == blobs  # the stored fold of this very note
    record["value"] = {**record["value"], "status": "active", "pause": None}
    stored.write_text(json.dumps(record))
    assert status(cli, project, session)["state"]["status"] == "paused"
    refused = cli(project, "step", "start", "S1")
    assert refused.code == 1 and "paused" in refused.stderr, refused
