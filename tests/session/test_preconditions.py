"""Early precondition signals, as the gates record them: `session status` shows them open,
`step start` admits only a bootstrap step while the path is absent and unclarified."""

from __future__ import annotations

from pathlib import Path

from tests.session.conftest import append, state_key, status, steps_of


def signal(root: Path, session: str, path: str) -> None:
    """A `workspace_precondition_failed` fact, written through the ledger API."""
    key = state_key(root)
    append(root, "workspace_precondition_failed", session,
           {"path": path, "source": "profile_requires", "named_by": "test", "attempts": 3,
            "blocks": []}, step="S1", state_key=key, subjects=(key,))


def test_status_shows_the_open_precondition_and_blocks_its_step(locked, cli) -> None:
    root, session = locked
    signal(root, session, "Makefile")
    document = status(cli, root, session)
    [open_one] = document["state"]["preconditions"]
    assert (open_one["path"], open_one["attempts"], open_one["step"]) == ("Makefile", 3, "S1")
    assert steps_of(document)["S1"] == ("blocked", 0)
    assert "open precondition: Makefile" in cli(root, "session", "status").stdout


def test_start_refuses_a_non_bootstrap_step_until_clarified(locked, cli) -> None:
    root, session = locked
    signal(root, session, "Makefile")
    refused = cli(root, "step", "start", "S1")
    assert refused.code == 1 and "Makefile is absent" in refused.stderr
    assert "session clarify Makefile" in refused.stderr
    assert cli(root, "session", "clarify", "Makefile", "--reason", "no make here").code == 0
    document = status(cli, root, session)
    assert document["state"]["preconditions"] == []
    assert document["state"]["clarified"] == ["Makefile"]
    assert cli(root, "step", "start", "S1").code == 0


def test_a_bootstrap_step_that_writes_the_path_may_start(locked, cli) -> None:
    root, session = locked
    signal(root, session, "src/a.py")
    assert cli(root, "step", "start", "S1").code == 0


def test_a_path_present_in_the_state_tree_no_longer_blocks(locked, cli) -> None:
    root, session = locked
    signal(root, session, "check.py")
    assert cli(root, "step", "start", "S1").code == 0


def test_clarify_needs_an_open_signal_on_that_path(locked, cli) -> None:
    root, session = locked
    result = cli(root, "session", "clarify", "Makefile", "--reason", "why")
    assert result.code == 1 and "no open precondition" in result.stderr
    assert status(cli, root, session)["state"]["clarified"] == []
