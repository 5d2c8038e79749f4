"""The Stop gate refuses "done" on weakened tests, whatever the profile opts into: the agent
is told each file, test and weakening, until the tests are restored or a person accepts
the findings on that exact state. Real processes, real hook payloads."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.agents.conftest import PROFILE, claude, cursor, gemini, hook, json_answer
from tests.conftest import git, run_correx, write
from tests.review.test_signatures import configure_signing, ssh_key
from tests.session.test_signed_decisions import overriding
from tests.verify.conftest import notes_on

PY_TEST = """from app import total


def test_total():
    assert total([1, 2]) == 3
    assert total([]) == 0
"""
JS_TEST = """const { total } = require("../src/app");

describe("total", () => {
  it("sums", () => {
    expect(total([1, 2])).toBe(3);
  });
});
"""
GO_TEST = """package app

import "testing"

func TestTotal(t *testing.T) {
	if got := Total([]int{1, 2}); got != 3 {
		t.Errorf("Total = %d, want 3", got)
	}
}
"""


@pytest.fixture
def suite(make_repo: Callable[..., Path]) -> Path:
    """A project with tests in Python, JavaScript and Go, committed; no Stop opt-in."""
    return make_repo(files={"README.md": "hello\n", "tests/test_app.py": PY_TEST,
                            "test/app.test.js": JS_TEST, "app/app_test.go": GO_TEST})


def stop(root: Path) -> dict[str, object]:
    """Claude Code's Stop, answered by the installed command's entry."""
    return json_answer(hook(root, "claude-code", claude("Stop", root)))


def test_a_python_test_emptied_blocks_naming_file_and_test(suite: Path) -> None:
    write(suite, "tests/test_app.py", PY_TEST.split("    assert")[0] + "    pass\n")
    answer = stop(suite)
    assert answer["decision"] == "block"
    reason = str(answer["reason"])
    assert "tests/test_app.py:4 test_total: assertions removed (2 → 0" in reason
    assert "only a person may accept it" in reason


def test_a_javascript_test_skipped_blocks_naming_file_and_test(suite: Path) -> None:
    write(suite, "test/app.test.js", JS_TEST.replace('it("sums"', 'it.skip("sums"'))
    reason = str(stop(suite)["reason"])
    assert "test/app.test.js:4 total > sums: skip marker added (marked skip)" in reason


def test_a_go_test_losing_its_check_blocks_naming_file_and_test(suite: Path) -> None:
    write(suite, "app/app_test.go", GO_TEST.replace(
        '\t\tt.Errorf("Total = %d, want 3", got)\n', "\t\t_ = got\n"))
    reason = str(stop(suite)["reason"])
    assert "app/app_test.go:5 TestTotal: assertions removed (1 → 0" in reason


def test_each_finding_is_recorded_once_on_the_state_tree(suite: Path) -> None:
    write(suite, "tests/test_app.py", PY_TEST.replace("    assert total([]) == 0\n", ""))
    stop(suite)
    stop(suite)
    key = run_correx(suite, "state").stdout.split()[0]
    found = [e for e in notes_on(suite, key) if e.kind == "test_integrity_weakened"]
    assert len(found) == 1
    fields = found[0].model_extra or {}
    assert (fields["path"], fields["test"], fields["rule"]) == \
        ("tests/test_app.py", "test_total", "assertions_removed")
    assert fields["baseline"] == git(suite, "rev-parse", "HEAD^{tree}").strip()


def test_an_accepted_weakening_lets_the_turn_end(suite: Path) -> None:
    write(suite, "tests/test_app.py", PY_TEST.replace("    assert total([]) == 0\n", ""))
    assert stop(suite)["decision"] == "block"
    accepted = run_correx(suite, "accept-tests", "--reason", "empty carts are gone")
    assert accepted.code == 0, accepted
    assert "accepted 1 finding(s)" in accepted.stdout
    result = hook(suite, "claude-code", claude("Stop", suite))
    assert (result.code, result.stdout) == (0, ""), result


def test_an_acceptance_holds_for_its_tree_only(suite: Path) -> None:
    write(suite, "tests/test_app.py", PY_TEST.replace("    assert total([]) == 0\n", ""))
    assert run_correx(suite, "accept-tests", "--reason", "r").code == 0
    write(suite, "README.md", "changed after the acceptance\n")
    assert stop(suite)["decision"] == "block"


def test_restoring_the_test_lets_the_turn_end(suite: Path) -> None:
    write(suite, "tests/test_app.py", "def test_total():\n    pass\n")
    assert stop(suite)["decision"] == "block"
    write(suite, "tests/test_app.py", PY_TEST)
    write(suite, "src/app.py", "def total(xs):\n    return sum(xs)\n")
    result = hook(suite, "claude-code", claude("Stop", suite))
    assert (result.code, result.stdout) == (0, ""), result


def test_a_refactor_that_keeps_its_assertions_is_not_flagged(suite: Path) -> None:
    write(suite, "tests/test_app.py", """from app import total
from tests.checks import expect_total


@pytest.mark.parametrize("xs, want", [([1, 2], 3), ([], 0)])
def test_total(xs, want):
    expect_total(xs, want)
""")
    write(suite, "tests/checks.py", "def expect_total(xs, want):\n"
                                    "    assert total(xs) == want\n")
    write(suite, "test/app.test.js", JS_TEST.replace("    expect(total([1, 2])).toBe(3);\n",
                                                     "    expectSum([1, 2], 3);\n") +
          "\nfunction expectSum(xs, want) {\n  expect(total(xs)).toBe(want);\n}\n")
    write(suite, "app/app_test.go", GO_TEST.replace("func TestTotal(", "func TestTotalSums("))
    result = hook(suite, "claude-code", claude("Stop", suite))
    assert (result.code, result.stdout) == (0, ""), result


def test_codex_gemini_and_cursor_are_held_too(suite: Path) -> None:
    write(suite, "tests/test_app.py", "def test_total():\n    pass\n")
    codex = hook(suite, "codex", claude("Stop", suite))
    assert codex.code == 2 and "test_total: assertions removed" in codex.stderr, codex
    answer = json_answer(hook(suite, "gemini", gemini("AfterAgent", suite)))
    assert answer["decision"] == "deny" and "test_total" in str(answer["reason"])
    followup = json_answer(hook(suite, "cursor", cursor("stop", suite, status="completed",
                                                        loop_count=0)))
    assert "test_total" in str(followup["followup_message"])


def test_integrity_is_judged_before_the_verify_opt_in(make_repo: Callable[..., Path]) -> None:
    root = make_repo(files={".correx.toml": PROFILE, "check.py": "import sys\n",
                            "tests/test_app.py": PY_TEST})
    git(root, "config", "correx.stage", "implement")
    write(root, "tests/test_app.py", PY_TEST.replace("def test_total", "def _test_total"))
    assert run_correx(root, "verify", "--stage", "implement", "--quiet").code == 0
    reason = str(stop(root)["reason"])
    assert "test_total: test renamed away" in reason and "verify" not in reason


def test_a_forged_acceptance_for_another_tree_does_not_count(suite: Path) -> None:
    """An acceptance line recorded on some other tree (or naming another finding) leaves
    this state's finding open."""
    from tests.ledger_facts import note_line

    write(suite, "tests/test_app.py", "def test_total():\n    pass\n")
    head = git(suite, "rev-parse", "HEAD^{tree}").strip()
    note_line(suite, head, "test_integrity_accepted",
              {"baseline": head, "reason": "forged", "findings": [
                  {"path": "tests/test_app.py", "test": "test_total",
                   "rule": "assertions_removed"}]}, state_key=head)
    key = run_correx(suite, "state").stdout.split()[0]
    note_line(suite, key, "test_integrity_accepted",
              {"baseline": head, "reason": "forged", "findings": [
                  {"path": "tests/test_app.py", "test": "test_other",
                   "rule": "assertions_removed"}]}, state_key=key)
    assert stop(suite)["decision"] == "block"
    assert json.loads(run_correx(suite, "accept-tests", "--dry-run", "--reason", "r",
                                 "--json").stdout)["open"]


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
def test_an_acceptance_by_an_untrusted_key_does_not_end_the_turn(suite: Path,
                                                                tmp_path: Path) -> None:
    """accept-tests is a person's decision: with signed decisions required, one signed by a
    key git does not trust (an agent's) is recorded and not counted."""
    configure_signing(suite, ssh_key(tmp_path, "person"), tmp_path)
    git(suite, "config", "correx.requireSignedDecisions", "true")
    write(suite, "tests/test_app.py", PY_TEST.replace("    assert total([]) == 0\n", ""))
    agent = overriding(**{"user.signingKey": str(ssh_key(tmp_path, "agent"))})
    accepted = run_correx(suite, "accept-tests", "--reason", "mine", env=agent)
    assert accepted.code == 0, accepted
    assert stop(suite)["decision"] == "block"
    assert run_correx(suite, "accept-tests", "--reason", "empty carts are gone").code == 0
    result = hook(suite, "claude-code", claude("Stop", suite))
    assert (result.code, result.stdout) == (0, ""), result
