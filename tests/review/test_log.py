"""`git correx log`: one line per commit, keyed by tree, lookups batched."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git, write
from tests.ledger_facts import verify_tree


def commit_file(repo: Path, name: str, content: str, message: str) -> tuple[str, str]:
    write(repo, name, content)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip(), git(repo, "rev-parse", "HEAD^{tree}").strip()


def test_log_shows_each_commits_tree_status(repo: Path, correx: Callable[..., CliResult]) -> None:
    _, passing = commit_file(repo, "a.txt", "a\n", "add a")
    _, failing = commit_file(repo, "b.txt", "b\n", "add b")
    commit_file(repo, "c.txt", "c\n", "add c")
    verify_tree(repo, passing, "pass", seconds=1)
    verify_tree(repo, failing, "fail", seconds=2)
    result = correx(repo, "log")
    assert result.code == 0, result
    lines = result.stdout.splitlines()
    assert [line.split()[1:3] for line in lines] == [
        ["-", "none"], ["✗", "fail"], ["✓", "pass"], ["-", "none"]]
    assert "test by ada@example.test 2026-01-01T00:00:02Z  add b" in lines[1]


def test_log_status_follows_the_tree_across_a_rebase(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    git(repo, "checkout", "-q", "-b", "topic")
    commit_file(repo, "feature.txt", "f\n", "feature")
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(repo, tree, "pass")
    git(repo, "commit", "-q", "--amend", "-m", "feature, reworded")
    rewritten = correx(repo, "log", "-n", "1", "--json")
    assert rewritten.code == 0, rewritten
    data = json.loads(rewritten.stdout)["commits"][0]
    assert data["subject"] == "feature, reworded"
    assert data["status"]["result"] == "pass"


def test_log_of_a_range_lists_only_its_commits(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    base = git(repo, "rev-parse", "HEAD").strip()
    commit_file(repo, "x.txt", "x\n", "x")
    commit_file(repo, "y.txt", "y\n", "y")
    result = correx(repo, "log", f"{base}..HEAD", "--json")
    assert [c["subject"] for c in json.loads(result.stdout)["commits"]] == ["y", "x"]


def test_log_of_an_unknown_revision_is_a_usage_error(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    result = correx(repo, "log", "no-such-branch")
    assert result.code == 2, result
    assert "no-such-branch" in result.stderr


def test_log_before_the_first_commit_says_so(tmp_path: Path,
                                             correx: Callable[..., CliResult]) -> None:
    git(tmp_path, "init", "-q", "fresh")
    result = correx(tmp_path / "fresh", "log")
    assert result.code == 2, result
    assert "HEAD has no commits yet" in result.stderr and "bad revision" not in result.stderr


def test_log_escapes_control_characters_in_subjects(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    commit_file(repo, "e.txt", "e\n", "evil \x1b[31mred\u202e")
    result = correx(repo, "log", "-n", "1")
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "\\x1b[31mred\\u202e" in result.stdout
