"""`git correx replay --check-fields`: every kept line of a known kind is read into its
payload class, and each one whose fields do not fit is reported among the ledger problems
at the note row it was read from (docs/ledger.md, "A line that does not fit its kind").
Without the flag no payload is read and such a line is no problem."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gitcorrex.model.session_object import session_object_oid
from tests.conftest import CliResult, git, in_process
from tests.ledger_facts import note_line, verification_draft, verify_tree
from tests.unfit_lines import unfit

KIND = "workspace_verification_observed"
UNFIT = f"{KIND} fields do not fit (result: Input should be 'pass', 'fail' or 'unavailable')"


def plant_three(repo: Path) -> tuple[str, str]:
    """A good verification, one whose `result` is 7 and one of a kind this version does not
    know, all in the note on HEAD's tree (written by git); (tree, the unfit line's id)."""
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(repo, tree)
    fields = verification_draft(in_process(repo), tree).payload.line_fields()
    unfit = note_line(repo, tree, KIND, {**fields, "result": 7}, seconds=1, state_key=tree)
    note_line(repo, tree, "kind_from_the_future", {"anything": 1}, seconds=2)
    return tree, unfit


def replay_json(repo: Path, correx: Callable[..., CliResult], *flags: str) -> dict[str, Any]:
    result = correx(repo, "replay", "--json", *flags)
    assert result.code == 0, result
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


def row_of(repo: Path, subject: str, event: str) -> tuple[int, str]:
    """The row (from 1) of the line with id `event` in `subject`'s note, as git shows it,
    and the line."""
    rows = git(repo, "notes", "--ref", "correx", "show", subject).splitlines()
    (found,) = [(n, line) for n, line in enumerate(rows, 1) if json.loads(line)["id"] == event]
    return found


def test_replay_json_without_check_fields_lists_no_unfit_line(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    plant_three(repo)
    replayed = replay_json(repo, correx)
    assert len(replayed["events"]) == 3
    reasons = [problem["reason"] for problem in replayed["problems"]]
    assert reasons == ["unknown kind 'kind_from_the_future' (written by a newer git correx?)"]


def test_replay_json_check_fields_lists_the_unfit_line_once_at_its_row(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    tree, event = plant_three(repo)
    replayed = replay_json(repo, correx, "--check-fields")
    assert len(replayed["events"]) == 3
    fields = [p for p in replayed["problems"] if "fields do not fit" in p["reason"]]
    row, stored = row_of(repo, tree, event)
    assert fields == [{"subject": tree, "line": row, "reason": UNFIT,
                       "excerpt": stored[:160] + "…"}]
    assert len(replayed["problems"]) == 2  # and the unknown kind's, as without the flag


def test_check_fields_reports_a_line_kept_in_two_notes_once(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    tree, _ = plant_three(repo)
    blob = git(repo, "rev-parse", "HEAD:README.md").strip()
    note = git(repo, "notes", "--ref", "correx", "show", tree)
    git(repo, "notes", "--ref", "correx", "add", "-F", "-", blob, input=note.encode("ascii"))
    replayed = replay_json(repo, correx, "--check-fields")
    fields = [p for p in replayed["problems"] if "fields do not fit" in p["reason"]]
    assert [p["reason"] for p in fields] == [UNFIT]


def test_text_replay_check_fields_reports_the_unfit_line_on_stderr(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    tree, event = plant_three(repo)
    plain = correx(repo, "replay")
    assert plain.code == 0, plain
    assert "fields do not fit (" not in plain.stderr
    result = correx(repo, "replay", "--check-fields")
    assert result.code == 0, result
    assert result.stdout == plain.stdout
    lines = [x for x in result.stderr.splitlines() if "fields do not fit" in x]
    prefix = f"git correx: ledger problem: {tree}:{row_of(repo, tree, event)[0]}: {UNFIT}: {{"
    assert len(lines) == 1 and lines[0].startswith(prefix), result


def test_check_fields_leaves_a_sessions_folded_state_as_it_was(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(repo, tree, session="s1")
    unfit(repo, session_object_oid("s1"), KIND, result=7)
    plain = replay_json(repo, correx, "--session", "s1")
    checked = replay_json(repo, correx, "--session", "s1", "--check-fields")
    assert checked["state"] == plain["state"] and checked["events"] == plain["events"]
    assert plain["problems"] == []
    assert [(p["subject"], p["reason"]) for p in checked["problems"]] \
        == [(session_object_oid("s1"), UNFIT)]
