"""`git correx sync`: fetch into a tracking ref, unite, push without force, retry."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from gitcorrex.ledger import read_all
from tests.conftest import CliResult, git, in_process, write
from tests.ledger_facts import verify_tree
from tests.sync.conftest import GitServer, remote_path

REF = "refs/notes/correx"


def event_ids(path: Path) -> set[str]:
    return {entry.id for entry in read_all(in_process(path)).entries}


def dirty_tree(clone: Path, name: str) -> str:
    """The tree of the workspace with an uncommitted file: a state key no commit has."""
    write(clone, name, f"{name}\n")
    git(clone, "add", "-A")
    tree = git(clone, "write-tree").strip()
    git(clone, "reset", "-q")
    return tree


def test_sync_unites_two_diverged_ledgers_and_pushes(
    shared_remote: Callable[[int], list[Path]], git_server: GitServer,
    correx: Callable[..., CliResult],
) -> None:
    one, two = shared_remote(2)
    tree = git(one, "rev-parse", "HEAD^{tree}").strip()
    verify_tree(one, tree, "pass", seconds=1)
    verify_tree(two, tree, "fail", seconds=2)
    verify_tree(two, dirty_tree(two, "extra.txt"), "pass", seconds=3)
    first = correx(one, "sync", "--json")
    assert first.code == 0, first
    assert json.loads(first.stdout)["outcome"] == "pushed"
    second = correx(two, "sync", "--json")
    assert second.code == 0, second
    assert json.loads(second.stdout)["outcome"] == "merged-and-pushed"
    third = correx(one, "sync")
    assert third.code == 0 and third.stdout.startswith("pulled"), third
    assert len(event_ids(one)) == 3
    assert event_ids(one) == event_ids(two) == event_ids(remote_path(git_server))


def test_sync_keeps_anchors_of_both_sides(
    shared_remote: Callable[[int], list[Path]], git_server: GitServer,
    correx: Callable[..., CliResult],
) -> None:
    one, two = shared_remote(2)
    mine, theirs = dirty_tree(one, "mine.txt"), dirty_tree(two, "theirs.txt")
    verify_tree(one, mine, "pass")
    verify_tree(two, theirs, "pass")
    assert correx(one, "sync").code == 0
    assert correx(two, "sync").code == 0
    anchors = git(two, "ls-tree", "-r", "-d", "--name-only", REF, "anchors").split()
    assert f"anchors/{mine[:2]}/{mine[2:]}" in anchors
    assert f"anchors/{theirs[:2]}/{theirs[2:]}" in anchors
    git(two, "gc", "-q", "--prune=now")
    git(two, "cat-file", "-e", mine)


def test_sync_never_touches_remote_config_or_forces(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    (one,) = shared_remote(1)
    before = git(one, "config", "--get-regexp", r"^remote\.")
    verify_tree(one, git(one, "rev-parse", "HEAD^{tree}").strip())
    assert correx(one, "sync").code == 0
    assert git(one, "config", "--get-regexp", r"^remote\.") == before
    tracking = git(one, "rev-parse", "refs/notes/remotes/origin/correx").strip()
    assert tracking == git(one, "rev-parse", REF).strip()


def test_sync_with_nothing_anywhere_is_up_to_date(
    shared_remote: Callable[[int], list[Path]], correx: Callable[..., CliResult],
) -> None:
    (one,) = shared_remote(1)
    result = correx(one, "sync", "--json")
    assert result.code == 0, result
    assert json.loads(result.stdout)["outcome"] == "up-to-date"


def test_sync_to_an_unknown_remote_is_a_usage_error(
    repo: Path, correx: Callable[..., CliResult],
) -> None:
    result = correx(repo, "sync", "nowhere")
    assert result.code == 2, result
    assert "nowhere" in result.stderr


def test_sync_of_an_unreachable_remote_is_unavailable(
    repo: Path, tmp_path: Path, correx: Callable[..., CliResult],
) -> None:
    git(repo, "remote", "add", "origin", str(tmp_path / "missing.git"))
    result = correx(repo, "sync")
    assert result.code == 3, result


def test_anchor_states_false_keeps_uncommitted_states_off_the_remote(
    shared_remote: Callable[[int], list[Path]], git_server: GitServer,
    correx: Callable[..., CliResult],
) -> None:
    private, public = shared_remote(2)
    git(private, "config", "correx.anchorStates", "false")
    secret = dirty_tree(private, "secret.txt")
    shown = dirty_tree(public, "shown.txt")
    verify_tree(private, secret, "pass", seconds=1)
    verify_tree(public, shown, "pass", seconds=2)
    assert correx(private, "sync").code == 0
    assert correx(public, "sync").code == 0
    served = remote_path(git_server)
    assert len(event_ids(served)) == 2
    git(served, "cat-file", "-e", shown)
    missing = subprocess.run(["git", "cat-file", "-e", secret], cwd=served, capture_output=True)
    assert missing.returncode != 0
    assert secret[2:] not in git(served, "ls-tree", "-r", "-d", "--name-only", REF, "anchors")


def test_sync_passes_an_installed_pre_push_manifest_hook(
    make_repo: Callable[..., Path], tmp_path: Path, correx: Callable[..., CliResult],
) -> None:
    profile = ('version = 1\n[commands]\nok = "true"\n[expectations]\nok = ["ok"]\n'
               '[stages.implement]\nwrites = ["/src/**"]\n')
    repo = make_repo(files={".correx.toml": profile})
    git(tmp_path, "init", "-q", "--bare", "origin.git")
    git(repo, "remote", "add", "origin", "../origin.git")  # relative, as users write it
    git(repo, "push", "-q", "origin", "HEAD:refs/heads/main")
    git(repo, "fetch", "-q", "origin")
    git(repo, "remote", "set-head", "origin", "main")
    assert correx(repo, "hooks", "install", "--pre-push").code == 0
    git(repo, "config", "correx.stage", "implement")
    verify_tree(repo, git(repo, "rev-parse", "HEAD^{tree}").strip())
    result = correx(repo, "sync")
    assert result.code == 0, result
    assert git(tmp_path / "origin.git", "rev-parse", REF).strip() == \
        git(repo, "rev-parse", REF).strip()
