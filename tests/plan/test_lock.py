"""`git correx plan lock`: only on an accepted validation and a pass grounding of this state."""

from __future__ import annotations

from pathlib import Path

from gitcorrex.git.repository import discover
from gitcorrex.ledger import read_subject
from gitcorrex.model.events import session_object_oid
from gitcorrex.plan.load import load_plan
from tests.conftest import git, write
from tests.plan.conftest import fixture, ground, parse, verified

PLAN = fixture("atomic_step.toml")


def accepted(cli, root: Path) -> None:
    assert cli(root, "plan", "authorize", str(PLAN)).code == 0
    assert cli(root, "plan", "validate", str(PLAN)).code == 0


def missing(cli, root: Path, *args: str, verify: bool = True) -> set[str]:
    if verify:
        verified(cli, root)
    result = cli(root, "plan", "lock", str(PLAN), "--json", *args)
    assert result.code == 1, result
    document = parse(result)
    assert not document["locked"] and document["events"] == []
    return {m["code"] for m in document["missing"]}


def test_lock_refused_without_validation(plan_repo: Path, cli) -> None:
    ground(plan_repo, PLAN)
    assert missing(cli, plan_repo) == {"validation_missing"}


def test_lock_refused_when_the_latest_validation_is_not_accepted(plan_repo: Path, cli) -> None:
    assert cli(plan_repo, "plan", "validate", str(PLAN)).code == 1  # not yet authorized
    ground(plan_repo, PLAN)
    assert missing(cli, plan_repo) == {"validation_not_accepted"}


def test_lock_refused_without_grounding(plan_repo: Path, cli) -> None:
    accepted(cli, plan_repo)
    assert missing(cli, plan_repo) == {"grounding_missing"}


def test_lock_refused_on_a_stale_state_key(plan_repo: Path, cli) -> None:
    accepted(cli, plan_repo)
    ground(plan_repo, PLAN)  # on the current tree...
    write(plan_repo, "src/app.py", "def run():\n    return 2\n")  # ...which then moves on
    result = cli(plan_repo, "plan", "lock", str(PLAN))
    assert result.code == 1, result
    assert "grounding_stale" in result.stdout and "other state keys" in result.stdout


def test_lock_refused_on_a_non_pass_verdict(plan_repo: Path, cli) -> None:
    accepted(cli, plan_repo)
    ground(plan_repo, PLAN, verdict="return_to_architect")
    assert missing(cli, plan_repo) == {"grounding_not_pass"}


def test_lock_refused_when_the_profile_changed_since_validation(plan_repo: Path, cli) -> None:
    accepted(cli, plan_repo)
    write(plan_repo, ".correx.toml", (plan_repo / ".correx.toml").read_text() + "\n")
    git(plan_repo, "commit", "-qam", "profile")
    ground(plan_repo, PLAN)
    assert missing(cli, plan_repo) == {"validation_stale"}


def test_lock_on_pass_grounding_of_the_current_key_starts_a_session(plan_repo: Path,
                                                                    correx, cli) -> None:
    accepted(cli, plan_repo)
    grounding = ground(plan_repo, PLAN)
    verified(cli, plan_repo)
    result = correx(plan_repo, "plan", "lock", str(PLAN))
    assert result.code == 0, result
    session = result.stdout.strip()
    assert session.startswith("retry-delivery-") and len(session) == len("retry-delivery-") + 8
    repo = discover(plan_repo)
    events = read_subject(repo, session_object_oid(session)).events
    assert [(e.kind, e.seq) for e in events] == [("session_started", 1), ("plan_locked", 2)]
    tree = git(plan_repo, "rev-parse", "HEAD^{tree}").strip()
    identity = load_plan(PLAN).identity
    for event in events:
        assert set(event.subjects) == {identity, tree, session_object_oid(session)}
        assert event.state_key == tree and event.session == session
    assert (events[1].model_extra or {}).get("grounding") == grounding.id


def test_a_session_is_locked_once(plan_repo: Path, cli) -> None:
    accepted(cli, plan_repo)
    ground(plan_repo, PLAN)
    verified(cli, plan_repo)
    first = cli(plan_repo, "plan", "lock", str(PLAN), "--session", "run-1", "--json")
    assert first.code == 0 and parse(first)["session"] == "run-1"
    assert missing(cli, plan_repo, "--session", "run-1") == {"session_exists"}


def test_invalid_session_id_is_a_usage_error(plan_repo: Path, cli) -> None:
    result = cli(plan_repo, "plan", "lock", str(PLAN), "--session", "no spaces")
    assert result.code == 2, result


def test_concurrent_locks_of_one_session_record_it_once(plan_repo: Path, cli) -> None:
    import os
    import subprocess
    import sys

    from tests.conftest import REPO_ROOT

    accepted(cli, plan_repo)
    ground(plan_repo, PLAN)
    verified(cli, plan_repo)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    argv = [sys.executable, "-m", "gitcorrex", "plan", "lock", str(PLAN), "--session", "race"]
    runs = [subprocess.Popen(argv, cwd=plan_repo, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE) for _ in range(3)]
    assert sorted(run.wait(timeout=60) for run in runs) == [0, 1, 1]
    events = read_subject(discover(plan_repo), session_object_oid("race")).events
    assert [e.kind for e in events] == ["session_started", "plan_locked"]


def test_lock_refused_when_nothing_verified_the_state(plan_repo: Path, cli) -> None:
    accepted(cli, plan_repo)
    ground(plan_repo, PLAN)
    assert missing(cli, plan_repo, verify=False) == {"baseline_unverified"}
    text = cli(plan_repo, "plan", "lock", str(PLAN))
    assert text.code == 1, text
    assert "nothing verified the workspace state" in text.stdout
    assert "git correx verify" in text.stdout and "changed" not in text.stdout


def test_lock_refused_when_the_latest_verification_failed(plan_repo: Path, cli) -> None:
    accepted(cli, plan_repo)
    write(plan_repo, "impl.txt", "broken\n")
    git(plan_repo, "commit", "-qam", "break the implementation")
    ground(plan_repo, PLAN)
    assert cli(plan_repo, "verify", "--expect", "full", "--quiet").code == 1
    assert missing(cli, plan_repo, verify=False) == {"baseline_not_pass"}


def test_lock_rests_on_the_passing_observation_of_its_state(plan_repo: Path, cli) -> None:
    accepted(cli, plan_repo)
    ground(plan_repo, PLAN)
    observed = parse(cli(plan_repo, "verify", "--expect", "full", "--json", "-q"))
    result = cli(plan_repo, "plan", "lock", str(PLAN), "--json")
    assert result.code == 0, result
    locked = parse(result)["events"][1]
    assert locked["baseline_observation"] == observed["event"]["id"]
    assert "baseline_unverified" not in locked


def test_baseline_unverified_is_recorded_and_shown(plan_repo: Path, correx, cli) -> None:
    accepted(cli, plan_repo)
    ground(plan_repo, PLAN)
    result = correx(plan_repo, "plan", "lock", str(PLAN), "--baseline-unverified",
                    "--reason", "the suite needs a database this runner lacks")
    assert result.code == 0, result
    session = result.stdout.strip()
    shown = correx(plan_repo, "session", "status", session)
    assert shown.code == 0, shown
    assert "(lock_unverified)" in shown.stdout
    assert "baseline unverified at lock: the suite needs a database" in shown.stdout
    events = read_subject(discover(plan_repo), session_object_oid(session)).events
    assert (events[1].model_extra or {}).get("baseline_unverified") == \
        "the suite needs a database this runner lacks"
    write(plan_repo, "src/retry.py", "RETRIES = 3\n")  # inside S1's writes, not verified
    refused = correx(plan_repo, "step", "start", "S1")
    assert refused.code == 1, refused
    assert "which nothing verified" in refused.stderr
    assert "changed after verification" not in refused.stderr


def test_baseline_unverified_needs_a_reason(plan_repo: Path, cli) -> None:
    accepted(cli, plan_repo)
    ground(plan_repo, PLAN)
    assert cli(plan_repo, "plan", "lock", str(PLAN), "--baseline-unverified").code == 2
    assert cli(plan_repo, "plan", "lock", str(PLAN), "--reason", "why").code == 2
