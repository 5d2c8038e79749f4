"""A foreign writer's seq-less event in a session's note sorts in one place for every reader:
after the session's numbered events (model/event_order.py). `replay --session`, the fold
`session status` shows and the ledger view a claim's provider reads must all agree."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from gitcorrex.model.events import session_object_oid
from tests.conftest import CliResult, git, in_process, write
from tests.ledger_facts import T0, note_line, verification_draft
from tests.session.conftest import state_key, status

Correx = Callable[..., CliResult]


def foreign_pass(root: Path, session: str, key: str, *, seconds: int = 0) -> str:
    """A passing observation of `key` naming `session` but no seq, under the profile the
    session is locked under, added to the session's note with `git notes` (as a foreign
    writer would); its id."""
    locked = git(root, "rev-parse", "HEAD:.correx.toml").strip()
    fields = verification_draft(in_process(root), key, "pass",
                                profile=locked).payload.line_fields()
    return note_line(root, session_object_oid(session), "workspace_verification_observed",
                     fields, seconds=seconds, state_key=key, session=session)


def verified_s1(locked: tuple[Path, str], cli: Correx) -> tuple[Path, str]:
    """S1 started, written and verified inside the session: its pass is the baseline."""
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "A = 1\n")
    verified = cli(root, "verify")
    assert verified.code == 0, verified
    return root, session


def test_a_seq_less_event_sorts_last_in_replay_and_in_the_session_fold(
        locked: tuple[Path, str], cli: Correx, correx: Correx) -> None:
    root, session = verified_s1(locked, cli)
    foreign = foreign_pass(root, session, "0" * 40)  # at T0: older than every session event
    replayed = correx(root, "replay", "--session", session, "--json")
    assert replayed.code == 0, replayed
    events = json.loads(replayed.stdout)["events"]
    assert events[-1]["id"] == foreign
    assert [e["seq"] for e in events[:-1]] == list(range(1, len(events)))
    state = status(correx, root, session)["state"]
    assert state["baseline"]["event"] == foreign  # folded last: the latest observation
    assert state["revision"] == len(events)


def test_a_claim_is_judged_on_the_session_s_latest_observation_in_session_order(
        locked: tuple[Path, str], cli: Correx, correx: Correx, tmp_path: Path) -> None:
    """The session's own observation failed (exit 1); a foreign seq-less pass of the same
    state key sorts after it, so the provider observes exit code 0 from the foreign line."""
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/a.py", "BUG\n")
    assert cli(root, "verify", "-q").code == 1
    key = state_key(root)
    now = int((datetime.now(timezone.utc) - T0).total_seconds())
    foreign = foreign_pass(root, session, key, seconds=now)
    claim = tmp_path / "claim.json"
    claim.write_text(json.dumps({"class": "observed_fact", "provider": "verification",
                                 "subject": key, "fact": "exit_code", "expected": 0}))
    result = correx(root, "pause", "--claim", str(claim), "--json")
    assert result.code == 0, result
    document = json.loads(result.stdout)
    assert document["outcome"] == "confirmed"
    assert document["observation"]["source"] == foreign


def test_a_step_s_writes_are_judged_from_its_latest_start_in_session_order(
        locked: tuple[Path, str], cli: Correx, correx: Correx) -> None:
    """A seq-less `step_started` of the active step (another writer's) is its latest start,
    for the fold and for the settlement alike: write evidence counts from its baseline."""
    root, session = locked
    assert cli(root, "step", "start", "S1").code == 0
    write(root, "src/b.py", "B = 1\n")  # outside S1's writes, before the later start
    key = state_key(root)
    note_line(root, session_object_oid(session), "step_started",
              {"writes": ["src/a.py"], "expectation_docs": False, "baseline": key},
              state_key=key, session=session, step="S1")
    write(root, "src/a.py", "A = 1\n")
    verified = correx(root, "verify")
    assert verified.code == 0, verified  # from the later start, only src/a.py changed
    assert "step S1 verified" in verified.stdout
