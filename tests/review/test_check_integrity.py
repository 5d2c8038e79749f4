"""`check BASE..HEAD --require-test-integrity` (or `correx.requireTestIntegrity`): the head
may not weaken the tests of the branch's merge base unless a person accepted it on the
head's tree; `report` shows every finding and acceptance to reviewers."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult, git, write
from tests.review.test_signatures import configure_signing, ssh_key

Correx = Callable[..., CliResult]
TEST = "def test_parse():\n    assert parse('1') == 1\n    assert parse('') is None\n"


@pytest.fixture
def branch(make_repo: Callable[..., Path]) -> Path:
    """main holds tests/test_parse.py; branch `topic` (checked out) removes an assertion
    in a commit, as an agent with a shell could before it stops."""
    root = make_repo(files={"tests/test_parse.py": TEST})
    git(root, "branch", "-M", "main")
    git(root, "checkout", "-qb", "topic")
    write(root, "tests/test_parse.py", TEST.replace("    assert parse('') is None\n", ""))
    git(root, "commit", "-qam", "simplify the parser")
    return root


def gate(correx: Correx, root: Path, *flags: str) -> CliResult:
    return correx(root, "check", "main..HEAD", "--require-test-integrity", *flags)


def test_a_committed_weakening_fails_the_check_until_accepted(branch: Path,
                                                              correx: Correx) -> None:
    refused = gate(correx, branch)
    assert refused.code == 1, refused
    assert "tests/test_parse.py:1 test_parse: assertions removed (2 → 1" in refused.stdout
    assert "accept-tests --base" in refused.stdout
    assert correx(branch, "check", "main..HEAD").code == 0  # not asked: not judged

    accepted = correx(branch, "accept-tests", "--base", "main", "--reason",
                      "empty input raises now")
    assert accepted.code == 0, accepted
    passed = gate(correx, branch)
    assert passed.code == 0, passed
    assert "tests hold" in passed.stdout and "1 weakening(s) accepted" in passed.stdout
    document = json.loads(gate(correx, branch, "--json").stdout)
    assert document["test_integrity"]["open"] == []
    assert [f["test"] for f in document["test_integrity"]["accepted"]] == ["test_parse"]


def test_the_config_key_requires_it_too(branch: Path, correx: Correx) -> None:
    git(branch, "config", "correx.requireTestIntegrity", "true")
    assert correx(branch, "check", "main..HEAD").code == 1
    git(branch, "config", "correx.requireTestIntegrity", "maybe")
    typo = correx(branch, "check", "main..HEAD")
    assert typo.code == 2 and "correx.requireTestIntegrity" in typo.stderr, typo


def test_tests_added_on_main_since_the_fork_are_not_the_branch_s(branch: Path,
                                                                 correx: Correx) -> None:
    git(branch, "checkout", "-q", "main")
    write(branch, "tests/test_more.py", "def test_more():\n    assert True is not False\n")
    git(branch, "add", "-A")
    git(branch, "commit", "-qm", "more tests on main")
    git(branch, "checkout", "-q", "topic")
    assert correx(branch, "accept-tests", "--base", "main~1", "--reason", "r").code == 0
    assert gate(correx, branch).code == 0, gate(correx, branch)


def test_an_acceptance_on_another_tree_does_not_count(branch: Path, correx: Correx) -> None:
    assert correx(branch, "accept-tests", "--base", "main", "--reason", "r").code == 0
    write(branch, "README.md", "more\n")
    git(branch, "add", "-A")
    git(branch, "commit", "-qm", "later commit")
    assert gate(correx, branch).code == 1


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
def test_with_signatures_required_only_a_signed_acceptance_counts(
        branch: Path, tmp_path: Path, correx: Correx) -> None:
    """`correx.requireSigned`: an unsigned acceptance line, which anyone who can push the
    ledger can add, neither accepts nor blocks."""
    assert correx(branch, "accept-tests", "--base", "main", "--reason", "unsigned").code == 0
    assert gate(correx, branch).code == 0
    git(branch, "config", "correx.requireSigned", "true")
    assert gate(correx, branch).code == 1
    configure_signing(branch, ssh_key(tmp_path, "key"), tmp_path)
    assert correx(branch, "accept-tests", "--base", "main", "--reason", "signed").code == 0
    passed = gate(correx, branch)
    assert passed.code == 0, passed
    assert json.loads(gate(correx, branch, "--json").stdout)["test_integrity"]["signed"]


def test_report_shows_every_finding_and_who_accepted_it(branch: Path, correx: Correx) -> None:
    assert gate(correx, branch, "--record").code == 1  # CI records what it found
    markdown = correx(branch, "report", "main..HEAD").stdout
    assert "- test integrity: ✗ tests/test_parse.py:1 **test_parse**: assertions removed " \
           "(2 → 1" in markdown
    assert correx(branch, "accept-tests", "--base", "main", "--reason", "raises now").code == 0
    markdown = correx(branch, "report", "main..HEAD").stdout
    assert "✓ accepted 1 weakening(s) against" in markdown and "raises now" in markdown
    document = json.loads(correx(branch, "report", "main..HEAD", "--json").stdout)
    kinds = [e["kind"] for e in document["commits"][0]["test_integrity"]]
    assert sorted(kinds) == ["test_integrity_accepted", "test_integrity_weakened"]
