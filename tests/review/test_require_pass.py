"""`git correx check BASE..HEAD --require-pass`: only a recorded pass on HEAD's tree counts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import CliResult, git, write
from tests.ledger_facts import verify_tree


def topic_commit(repo: Path) -> tuple[str, str]:
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "feature.txt", "feature\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "feature")
    return base, git(repo, "rev-parse", "HEAD^{tree}").strip()


def test_require_pass_fails_without_a_recorded_pass(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    base, _ = topic_commit(repo)
    result = correx(repo, "check", f"{base}..HEAD", "--require-pass")
    assert result.code == 1, result
    assert "- none (a recorded pass is required)" in result.stdout


def test_require_pass_accepts_a_pass_on_the_head_tree(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    base, tree = topic_commit(repo)
    verify_tree(repo, tree, "pass")
    result = correx(repo, "check", f"{base}..HEAD", "--require-pass", "--json")
    assert result.code == 0, result
    assert json.loads(result.stdout)["required_pass"]["result"] == "pass"


def test_require_pass_follows_the_latest_observation(
    repo: Path, correx: Callable[..., CliResult]
) -> None:
    base, tree = topic_commit(repo)
    verify_tree(repo, tree, "pass", seconds=1)
    verify_tree(repo, tree, "fail", seconds=2)
    assert correx(repo, "check", f"{base}..HEAD", "--require-pass").code == 1
    assert correx(repo, "check", f"{base}..HEAD").code == 0
