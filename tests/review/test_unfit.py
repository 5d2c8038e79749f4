"""A ledger line of a known kind whose fields do not fit its payload class: every report
prints it as `<kind> ⚠ fields do not fit (<where: message>)`, never as a half-read verdict,
and nothing counts it as a pass (docs/ledger.md, "A line that does not fit its kind")."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, commit_a_change, git, in_process
from tests.ledger_facts import note_line, verification_draft

KIND = "workspace_verification_observed"
RESULT_7 = f"{KIND} ⚠ fields do not fit (result: Input should be 'pass', 'fail' or " \
           "'unavailable')"


def plant(repo: Path, **changed: object) -> str:
    """A well-formed verification of HEAD's tree with `changed` fields, written by git."""
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    fields = verification_draft(in_process(repo), tree).payload.line_fields()
    return note_line(repo, tree, KIND, {**fields, **changed}, state_key=tree)


def test_show_prints_an_unfit_verification_as_such(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    event = plant(repo, result=7)
    result = correx(repo, "show", "HEAD")
    assert result.code == 0, result
    (line,) = result.stdout.splitlines()[1:]
    assert f"  {RESULT_7}  by ada@example.test" in line and event[:12] in line
    assert result.stderr == ""


def test_replay_prints_an_unfit_line_as_such(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    plant(repo, result=7)
    result = correx(repo, "replay")
    assert result.code == 0, result
    (line,) = result.stdout.splitlines()
    assert f"  {RESULT_7}  by ada@example.test" in line


def test_log_shows_an_unfit_latest_verification_as_unavailable_with_its_problem(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    event = plant(repo, result=7)
    text = correx(repo, "log")
    assert text.code == 0, text
    assert f" ? unavailable {RESULT_7} by ada@example.test 2026-01-01T00:00:00Z " \
        in text.stdout
    status = json.loads(correx(repo, "log", "--json").stdout)["commits"][0]["status"]
    assert (status["result"], status["expectation"], status["problem"], status["event"]) \
        == ("unavailable", None, RESULT_7, event)


def test_report_lists_an_unfit_verification_and_counts_it_unavailable(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    plant(repo, result=7)
    result = correx(repo, "report", "--format", "markdown")
    assert result.code == 0, result
    assert f"\n- {RESULT_7}\n" in result.stdout and "verification 7" not in result.stdout
    assert "? 1 unavailable" in result.stdout and "✗ 0 fail" in result.stdout


def test_an_unfit_line_saying_pass_is_no_pass(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    base = commit_a_change(repo)
    plant(repo, commands=7)  # "result": "pass" beside fields that do not fit
    gate = correx(repo, "check", f"{base}..HEAD", "--require-pass")
    assert gate.code == 1, gate
    assert "? unavailable (a recorded pass is required)" in gate.stdout + gate.stderr
    assert " ✓ pass " not in correx(repo, "log").stdout
