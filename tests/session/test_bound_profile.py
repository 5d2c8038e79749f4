"""A session runs only the profile it was locked under, as real processes.

The attack (issue 26): between steps an agent rewrites the implement stage's
`build_expectation` to an expectation without commands, so that a step writing broken code
would complete "without a build claim". The settlement reads the locked blob, never the
work tree; a work-tree profile that is not the locked one stops `verify` and `step start`
in the session (exit 1), naming the file, both blobs and the two ways on. Each adversary
variant — a symbolic link, `assume-unchanged`, a change staged but not in the work tree, a
pass recorded outside the session — is refused the same way. Only a re-plan adopts a new
profile.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git, write
from tests.session.conftest import PROFILE, THREE_STEPS, lock_ready, status, steps_of

Correx = Callable[..., CliResult]

# The implement stage's build expectation rewritten to one that runs nothing.
NO_CLAIM = PROFILE.replace('[stages.implement]\nbuild_expectation = "test"',
                           '[stages.implement]\nbuild_expectation = "notes"')


@pytest.fixture
def s1_verified(project: Path, plans: Callable[..., Path],
                correx: Correx) -> tuple[Path, str, Path]:
    """The three-step plan locked, S1 started, written and verified: (root, session, plan)."""
    plan = plans("v1", THREE_STEPS)
    locked = lock_ready(correx, project, plan, "--session", "run-1")
    assert locked.code == 0, locked
    assert correx(project, "step", "start", "S1").code == 0
    write(project, "src/a.py", "A = 1\n")
    verified = correx(project, "verify")
    assert verified.code == 0 and "step S1 verified" in verified.stdout, verified
    return project, "run-1", plan


def locked_blob(root: Path, session: str, correx: Correx) -> str:
    return str(status(correx, root, session)["state"]["profile"])


def assert_profile_refusal(result: CliResult, locked: str) -> None:
    """Exit 1 naming the file, the locked blob, the changed one and both ways on."""
    assert result.code == 1, result
    assert ".correx.toml changed" in result.stderr, result
    assert f"blob {locked[:12]}" in result.stderr and "nothing was run or recorded" in \
        result.stderr, result
    assert f"git cat-file blob {locked}" in result.stderr, result
    assert "--replaces" in result.stderr, result


def test_a_profile_rewritten_during_a_step_does_not_settle_it(
        project: Path, plans: Callable[..., Path], correx: Correx) -> None:
    assert lock_ready(correx, project, plans("v1", THREE_STEPS), "--session", "run-1").code == 0
    locked = locked_blob(project, "run-1", correx)
    assert correx(project, "step", "start", "S1").code == 0
    write(project, ".correx.toml", NO_CLAIM)
    write(project, "src/a.py", "BUG = 1\n")
    refused = correx(project, "verify")
    assert_profile_refusal(refused, locked)
    changed = git(project, "hash-object", ".correx.toml").strip()
    assert f"holds blob {changed[:12]}" in refused.stderr, refused
    document = status(correx, project, "run-1")
    assert steps_of(document)["S1"] == ("active", 0)  # not verified, nothing recorded
    assert document["workspace"]["profile_bound"] is False
    assert correx(project, "step", "start", "S2").code == 1  # S1 is not verified


def test_a_profile_rewritten_between_steps_refuses_the_next_start(
        s1_verified: tuple[Path, str, Path], correx: Correx) -> None:
    root, session, _ = s1_verified
    locked = locked_blob(root, session, correx)
    write(root, ".correx.toml", NO_CLAIM)
    started = correx(root, "step", "start", "S2")
    assert_profile_refusal(started, locked)
    assert steps_of(status(correx, root, session))["S2"] == ("pending", 0)
    assert_profile_refusal(correx(root, "verify"), locked)  # nor does verify run it


def test_a_profile_replaced_by_a_symbolic_link_is_refused(
        s1_verified: tuple[Path, str, Path], correx: Correx) -> None:
    root, session, _ = s1_verified
    locked = locked_blob(root, session, correx)
    write(root, "elsewhere.toml", (root / ".correx.toml").read_text())  # the same values
    (root / ".correx.toml").unlink()
    (root / ".correx.toml").symlink_to("elsewhere.toml")
    started = correx(root, "step", "start", "S2")
    assert_profile_refusal(started, locked)
    assert "(a symbolic link)" in started.stderr, started


def test_a_profile_hidden_by_assume_unchanged_is_refused(
        s1_verified: tuple[Path, str, Path], correx: Correx) -> None:
    root, session, _ = s1_verified
    locked = locked_blob(root, session, correx)
    git(root, "update-index", "--assume-unchanged", ".correx.toml")
    write(root, ".correx.toml", NO_CLAIM)
    assert git(root, "status", "--porcelain").strip() == "?? src/a.py"  # git looks away
    assert_profile_refusal(correx(root, "step", "start", "S2"), locked)
    assert_profile_refusal(correx(root, "verify"), locked)


def test_a_profile_change_staged_but_not_in_the_work_tree_is_refused(
        s1_verified: tuple[Path, str, Path], correx: Correx) -> None:
    root, session, _ = s1_verified
    locked = locked_blob(root, session, correx)
    write(root, ".correx.toml", NO_CLAIM)
    git(root, "add", ".correx.toml")
    staged = git(root, "rev-parse", ":.correx.toml").strip()
    write(root, ".correx.toml", PROFILE)  # the work tree holds the locked profile again
    started = correx(root, "step", "start", "S2")
    assert_profile_refusal(started, locked)
    assert f"the index stages blob {staged[:12]}" in started.stderr, started
    git(root, "restore", "--staged", ".correx.toml")  # the fix the refusal names
    assert correx(root, "step", "start", "S2").code == 0


def test_a_pass_outside_the_session_under_a_changed_profile_starts_nothing(
        s1_verified: tuple[Path, str, Path], correx: Correx) -> None:
    root, session, _ = s1_verified
    locked = locked_blob(root, session, correx)
    write(root, "src/b.py", "BUG = 2\n")  # S2's writes, broken
    write(root, ".correx.toml", PROFILE.replace('test = "python3 check.py"',
                                                'test = "python3 -c pass"'))
    git(root, "config", "--unset", "correx.session")
    passed = correx(root, "verify", "--expect", "test")  # a pass, outside the session
    assert passed.code == 0 and "pass" in passed.stdout, passed
    started = correx(root, "step", "start", "S2", "--session", session)
    assert_profile_refusal(started, locked)
    document = status(correx, root, session)
    assert document["workspace"]["verified"] is False


def test_only_a_re_plan_adopts_a_new_profile(
        s1_verified: tuple[Path, str, Path], plans: Callable[..., Path], correx: Correx) -> None:
    root, session, plan = s1_verified
    stricter = PROFILE.replace("max_attempts = 2", "max_attempts = 4")
    write(root, ".correx.toml", stricter)
    assert correx(root, "step", "start", "S2").code == 1
    replanned = lock_ready(correx, root, plan, "--session", session, "--replaces", str(plan))
    assert replanned.code == 0, replanned
    document = status(correx, root, session)
    assert document["state"]["profile"] == git(root, "hash-object", ".correx.toml").strip()
    assert document["workspace"]["verified"] is False  # no pass under the adopted profile yet
    unverified = correx(root, "step", "start", "S2")
    assert unverified.code == 1 and "no passing observation" in unverified.stderr, unverified
    assert correx(root, "verify").code == 0  # under the adopted profile
    started = correx(root, "step", "start", "S2", "--json")
    assert started.code == 0, started  # the profile itself is no change outside S2's writes
    assert json.loads(started.stdout)["step"] == "S2"
