"""A session is bound to the profile it was locked under: only a pass under that profile is
its known-good baseline, at the lock and after it.

The adversary (an agent with access to the ledger ref, or a foreign writer) adds a pass of
an unverified state that ran another profile: it must not become the baseline the next
step starts on, nor the lock state's verification.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gitcorrex.model.events import session_object_oid
from tests.conftest import CliResult, git, in_process, write
from tests.ledger_facts import note_line, verification_draft
from tests.session.conftest import THREE_STEPS, state_key, status

Correx = Callable[..., CliResult]


def pass_under_another_profile(root: Path, key: str, *, session: str | None = None) -> str:
    """A passing observation of `key` that ran a profile the tree does not hold, added with
    `git notes` (to the session's note when `session`); its id."""
    other = git(root, "hash-object", "-w", "--stdin", input=b"version = 1\n").strip()
    fields = verification_draft(in_process(root), key, "pass").payload.line_fields()
    subject = session_object_oid(session) if session else key
    return note_line(root, subject, "workspace_verification_observed",
                     {**fields, "profile": other}, state_key=key, session=session)


def test_the_lock_records_the_profile_the_session_is_bound_to(
        locked: tuple[Path, str], correx: Correx) -> None:
    root, session = locked
    state = status(correx, root, session)["state"]
    assert state["profile"] == git(root, "rev-parse", "HEAD:.correx.toml").strip()


def test_a_pass_under_another_profile_does_not_move_the_baseline(
        locked: tuple[Path, str], cli: Correx, correx: Correx) -> None:
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "A = 1\n")
    assert cli(root, "verify").code == 0
    genuine = status(correx, root, session)["state"]["baseline"]
    write(root, "src/b.py", "BUG\n")  # an unverified state, S2's writes
    pass_under_another_profile(root, state_key(root), session=session)
    document = status(correx, root, session)
    assert document["state"]["baseline"] == genuine
    assert document["workspace"]["verified"] is False
    started = cli(root, "step", "start", "S2")
    assert started.code == 1, started
    assert "carries no passing observation of a build expectation" in started.stderr, started


def test_a_pass_under_another_profile_is_no_lock_baseline(
        project: Path, plans: Callable[..., Path], cli: Correx) -> None:
    plan = plans("v1", THREE_STEPS)
    for command in ("authorize", "validate", "ground"):
        assert cli(project, "plan", command, str(plan)).code == 0
    pass_under_another_profile(project, state_key(project))
    result = cli(project, "plan", "lock", str(plan), "--session", "run-1")
    assert result.code == 1, result
    assert "only under another profile" in result.stdout + result.stderr, result
