"""A line a newer git correx wrote, with keys this version does not know (top level, in a
nested record, in the envelope's `actor`), reads as what it is: its pass is a pass in every
report and gate, and no problem is reported (STYLE: readers tolerate unknown fields of a
known version; docs/ledger.md, "Lines from a newer writer")."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, commit_a_change, git, in_process
from tests.ledger_facts import note_line, verification_draft

KIND = "workspace_verification_observed"


def plant_newer_pass(repo: Path) -> str:
    """A passing verification of HEAD's tree carrying keys a later version added."""
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    fields = verification_draft(in_process(repo), tree).payload.line_fields()
    assert fields["result"] == "pass" and fields["commands"]
    commands = [{**fields["commands"][0], "cpu_ms": 12}, *fields["commands"][1:]]
    newer = {**fields, "commands": commands, "runner_image": "ci:2027"}
    return note_line(repo, tree, KIND, newer, state_key=tree, actor_extra={"agent": "x"})


def test_a_newer_writers_pass_is_a_pass_in_show_log_and_replay(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    event = plant_newer_pass(repo)
    shown = correx(repo, "show", "HEAD")
    assert shown.code == 0 and shown.stderr == "", shown
    assert "✓ pass" in shown.stdout and "⚠" not in shown.stdout and event[:12] in shown.stdout
    status = json.loads(correx(repo, "log", "--json").stdout)["commits"][0]["status"]
    assert (status["result"], status["event"], status.get("problem")) == ("pass", event, None)
    replay = correx(repo, "replay", "--json")
    assert replay.code == 0, replay
    document = json.loads(replay.stdout)
    assert document["problems"] == [] and [e["id"] for e in document["events"]] == [event]


def test_a_newer_writers_pass_satisfies_require_pass(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    base = commit_a_change(repo)
    plant_newer_pass(repo)
    gate = correx(repo, "check", f"{base}..HEAD", "--require-pass")
    assert gate.code == 0, gate
