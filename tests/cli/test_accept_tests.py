"""`git correx accept-tests`: every exit code, what it records, and what it never records."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.agents.conftest import claude, hook, json_answer
from tests.conftest import IDENTITY_ENV, git, run_correx, write
from tests.verify.conftest import notes_on

TEST = "def test_a():\n    assert f() == 1\n"


def weakened(repo: Path) -> str:
    """Commit a test, then empty it in the work tree; the state key."""
    write(repo, "tests/test_a.py", TEST)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a test")
    write(repo, "tests/test_a.py", "def test_a():\n    pass\n")
    return run_correx(repo, "state").stdout.split()[0]


def kinds_on(repo: Path, tree: str) -> list[str]:
    return [event.kind for event in notes_on(repo, tree)]


def test_accepting_records_findings_and_who_accepted_why(repo: Path) -> None:
    key = weakened(repo)
    result = run_correx(repo, "accept-tests", "--reason", "the API changed", "--json")
    assert result.code == 0, result
    document = json.loads(result.stdout)
    assert [f["test"] for f in document["findings"]] == ["test_a"]
    event = document["event"]
    assert (event["kind"], event["reason"], event["actor"]["email"]) == \
        ("test_integrity_accepted", "the API changed", "ada@example.test")
    assert event["findings"] == [{"path": "tests/test_a.py", "test": "test_a",
                                  "rule": "assertions_removed"}]
    assert sorted(kinds_on(repo, key)) == ["test_integrity_accepted",
                                           "test_integrity_weakened"]


def test_a_dry_run_lists_and_records_nothing(repo: Path) -> None:
    key = weakened(repo)
    result = run_correx(repo, "accept-tests", "--dry-run", "--reason", "r")
    assert result.code == 0, result
    assert "tests/test_a.py:1 test_a: assertions removed" in result.stdout
    assert "nothing recorded" in result.stdout
    assert kinds_on(repo, key) == []


def test_nothing_to_accept_records_nothing(repo: Path) -> None:
    result = run_correx(repo, "accept-tests", "--reason", "r")
    assert result.code == 0 and "nothing to accept" in result.stdout, result
    assert git(repo, "for-each-ref", "refs/notes/correx") == ""


def test_usage_errors_exit_2(repo: Path, tmp_path: Path) -> None:
    weakened(repo)
    assert run_correx(repo, "accept-tests").code == 2  # --reason is required
    blank = run_correx(repo, "accept-tests", "--reason", "  ")
    assert blank.code == 2 and "--reason" in blank.stderr, blank
    unknown = run_correx(repo, "accept-tests", "--reason", "r", "--base", "no-such-rev")
    assert unknown.code == 2 and "no-such-rev" in unknown.stderr, unknown
    nobody = tmp_path / "nobody"
    nobody.mkdir()
    git(repo, "config", "user.useConfigOnly", "true")
    anonymous = run_correx(repo, "accept-tests", "--reason", "r", unset=IDENTITY_ENV,
                           env={"HOME": str(nobody), "XDG_CONFIG_HOME": str(nobody / "c")})
    assert anonymous.code == 2 and "user.name" in anonymous.stderr, anonymous


def test_a_test_file_whose_name_is_not_utf8_is_recorded_and_accepted(repo: Path) -> None:
    """A path git hands over as bytes (here 0xff and a right-to-left override) is recorded
    as ledger text, and the acceptance names the finding the next scan finds."""
    name = os.fsdecode(b"tests/test_\xff\xe2\x80\xae.py")
    write(repo, name, TEST)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a test")
    write(repo, name, "def test_a():\n    pass\n")
    assert json_answer(hook(repo, "claude-code", claude("Stop", repo)))["decision"] == "block"
    accepted = run_correx(repo, "accept-tests", "--reason", "renamed API", "--json")
    assert accepted.code == 0, accepted
    [finding] = json.loads(accepted.stdout)["event"]["findings"]
    assert finding["path"] == "tests/test_\\xff\u202e.py"
    ended = hook(repo, "claude-code", claude("Stop", repo))
    assert (ended.code, ended.stdout) == (0, ""), ended  # the acceptance names this finding
