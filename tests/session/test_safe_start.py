"""A step starts on a safe completed state, as real processes (seed 003 INV-4).

Every change between the last settled state and the state a step starts on must lie inside
the starting step's writes — it then counts as that step's writes — or be adopted by an
operator (`session adopt --reason`). Otherwise `step start` is refused naming every path
and the two ways on. A step also starts only on a verified state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, write
from tests.session.conftest import THREE_STEPS, lock_ready, state_key, status

Correx = Callable[..., CliResult]


@pytest.fixture
def s1_verified(project: Path, plans: Callable[..., Path], correx: Correx) -> tuple[Path, str]:
    """The three-step plan locked, S1 written and verified: (root, session)."""
    assert lock_ready(correx, project, plans("v1", THREE_STEPS), "--session", "run-1").code == 0
    assert correx(project, "step", "start", "S1").code == 0
    write(project, "src/a.py", "A = 1\n")
    assert correx(project, "verify").code == 0
    return project, "run-1"


def session_events(correx: Correx, root: Path, session: str, kind: str) -> list[dict[str, Any]]:
    replayed = correx(root, "replay", "--session", session, "--json")
    assert replayed.code == 0, replayed
    return [e for e in json.loads(replayed.stdout)["events"] if e["kind"] == kind]


def test_an_edit_outside_the_next_step_s_writes_is_refused_naming_every_path(
        s1_verified: tuple[Path, str], correx: Correx) -> None:
    root, session = s1_verified
    settled = state_key(root)
    write(root, "README.md", "edited by hand\n")
    write(root, "notes/todo.txt", "later\n")
    assert correx(root, "verify").code == 0  # verified, but no step declared it
    refused = correx(root, "step", "start", "S2")
    assert refused.code == 1, refused
    assert f"since the last settled state {settled[:12]}" in refused.stderr, refused
    assert "README.md, notes/todo.txt" in refused.stderr, refused
    assert "revert them" in refused.stderr, refused
    assert f"git correx session adopt --session {session} --reason TEXT" in refused.stderr
    assert not session_events(correx, root, session, "step_started")[1:]


def test_an_edit_inside_the_next_step_s_writes_counts_as_its_writes(
        s1_verified: tuple[Path, str], correx: Correx) -> None:
    root, session = s1_verified
    settled = state_key(root)
    write(root, "src/b.py", "B = 2\n")  # S2's declared writes
    assert correx(root, "verify").code == 0
    assert correx(root, "step", "start", "S2").code == 0
    started = session_events(correx, root, session, "step_started")[-1]
    assert (started["step"], started["baseline"]) == ("S2", settled)  # its writes begin there
    assert started["writes_before_start"] == ["src/b.py"]
    assert correx(root, "verify").code == 0  # its settlement judges src/b.py as S2's write


def test_an_edit_a_step_counts_is_still_judged_by_its_settlement(
        s1_verified: tuple[Path, str], correx: Correx) -> None:
    """The edit made before S2 started is S2's: a bug in it fails S2's settlement."""
    root, _ = s1_verified
    write(root, "src/b.py", "B = 2\n")
    assert correx(root, "verify").code == 0
    assert correx(root, "step", "start", "S2").code == 0
    write(root, "src/b.py", "BUG = 2\n")
    assert correx(root, "verify").code == 1


def test_session_adopt_lets_the_start_proceed(s1_verified: tuple[Path, str],
                                              correx: Correx) -> None:
    root, session = s1_verified
    write(root, "README.md", "edited by hand\n")
    assert correx(root, "verify").code == 0
    assert correx(root, "step", "start", "S2").code == 1
    adopted = correx(root, "session", "adopt", "--reason", "the README edit is fine")
    assert adopted.code == 0 and "README.md" in adopted.stdout, adopted
    event = session_events(correx, root, session, "changes_adopted")[-1]
    assert (event["paths"], event["reason"]) == (["README.md"], "the README edit is fine")
    assert event["state_key"] == state_key(root)
    assert correx(root, "step", "start", "S2").code == 0
    started = session_events(correx, root, session, "step_started")[-1]
    assert started["baseline"] == state_key(root) and "writes_before_start" not in started


def test_an_adoption_verifies_nothing(s1_verified: tuple[Path, str], correx: Correx) -> None:
    root, _ = s1_verified
    write(root, "README.md", "edited by hand\n")
    assert correx(root, "session", "adopt", "--reason", "fine").code == 0
    refused = correx(root, "step", "start", "S2")
    assert refused.code == 1 and "no passing observation" in refused.stderr, refused


def test_adopt_is_refused_while_a_step_is_active_and_records_nothing_unchanged(
        s1_verified: tuple[Path, str], correx: Correx) -> None:
    root, session = s1_verified
    nothing = correx(root, "session", "adopt", "--reason", "nothing to adopt")
    assert nothing.code == 0 and "nothing recorded" in nothing.stdout, nothing
    assert correx(root, "step", "start", "S2").code == 0
    write(root, "README.md", "edited by hand\n")
    active = correx(root, "session", "adopt", "--reason", "during S2")
    assert active.code == 1 and "step S2 is active" in active.stderr, active
    assert not session_events(correx, root, session, "changes_adopted")


def test_adopt_never_adopts_a_profile(s1_verified: tuple[Path, str], correx: Correx) -> None:
    root, _ = s1_verified
    write(root, ".correx.toml", (root / ".correx.toml").read_text() + "\n# edited\n")
    refused = correx(root, "session", "adopt", "--reason", "new profile")
    assert refused.code == 1 and "--replaces" in refused.stderr, refused


def test_a_step_is_refused_on_an_unverified_key(s1_verified: tuple[Path, str],
                                                correx: Correx) -> None:
    root, session = s1_verified
    write(root, "src/b.py", "BUG = 2\n")  # inside S2's writes, never verified
    refused = correx(root, "step", "start", "S2")
    assert refused.code == 1, refused
    assert "carries no passing observation of a build expectation" in refused.stderr
    assert correx(root, "verify").code == 1  # between steps: the state fails
    assert correx(root, "step", "start", "S2").code == 1
    assert status(correx, root, session)["workspace"]["verified"] is False


def test_an_unverified_lock_admits_the_first_step_only(
        project: Path, plans: Callable[..., Path], correx: Correx) -> None:
    """`--baseline-unverified` is the operator's decision for the first step; once a step
    is verified (here one without writes, whose checks record no build claim), the lock
    state it settled on still needs a passing observation."""
    no_writes = {**THREE_STEPS[2], "id": "N1", "writes": [], "dependencies": []}
    plan = plans("first", [no_writes, {**THREE_STEPS[0], "blockers": []}], "first")
    locked = lock_ready(correx, project, plan, "--session", "u", "--baseline-unverified",
                        "--reason", "the build needs N1 first")
    assert locked.code == 0, locked
    assert correx(project, "step", "start", "N1").code == 0  # the first step: admitted
    assert correx(project, "verify").code == 0
    refused = correx(project, "step", "start", "S1")
    assert refused.code == 1 and "no passing observation" in refused.stderr, refused
    assert correx(project, "verify", "--stage", "implement").code == 0
    assert correx(project, "step", "start", "S1").code == 0
