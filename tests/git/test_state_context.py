"""Where the key is computed from: worktrees, subdirectories, a hook's index, and the
`git correx state` command itself (output, JSON, and its exit-2/exit-3 refusals)."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gitcorrex.git.repository import discover
from gitcorrex.git.state import TEMP_INDEX_PREFIX, compute_state
from tests.conftest import REPO_ROOT, CliResult, git, write
from tests.git.state_helpers import assert_state_matches_git, reference_key, snapshot

Correx = Callable[..., CliResult]


def test_linked_worktree_keys_its_own_files(repo: Path, tmp_path: Path) -> None:
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(worktree))
    write(worktree, "feature.txt", "only here\n")
    main_before = snapshot(repo)
    result = assert_state_matches_git(worktree)
    assert snapshot(repo) == main_before
    assert result.dirty
    assert result.state_key != reference_key(repo)


def test_key_from_a_subdirectory_covers_the_whole_tree(repo: Path, correx: Correx) -> None:
    write(repo, "deep/er/file.txt", "x\n")
    write(repo, "top.txt", "y\n")
    assert_state_matches_git(repo, start=repo / "deep" / "er")
    result = correx(repo / "deep" / "er", "state")
    assert (result.code, result.stdout) == (0, reference_key(repo) + "\n"), result


def test_index_from_git_index_file_is_the_one_keyed(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo, ".gitignore", "*.log\n")
    write(repo, "build.log", "forced\n")
    other = tmp_path / "other-index"
    other.write_bytes((repo / ".git" / "index").read_bytes())
    git(repo, "add", "-f", "build.log", env={"GIT_INDEX_FILE": str(other)})
    default_key = reference_key(repo)
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    before = snapshot(repo, index=other)
    result = compute_state(discover(repo))
    assert snapshot(repo, index=other) == before
    assert result.state_key == reference_key(repo, index=other) != default_key


HOOK = """#!/bin/sh
out={out}
{python} -m gitcorrex state > "$out/correx" 2> "$out/correx.err" || exit 1
printf %s "$GIT_INDEX_FILE" > "$out/index-path"
x="$out/ref-index"
cp "$GIT_INDEX_FILE" "$x" && GIT_INDEX_FILE="$x" git add -A
GIT_INDEX_FILE="$x" git write-tree > "$out/ref"
x="$out/main-index"
cp .git/index "$x" && GIT_INDEX_FILE="$x" git add -A
GIT_INDEX_FILE="$x" git write-tree > "$out/main"
"""


@pytest.mark.parametrize("commit_args", [["-a"], ["--", "tracked.txt"]])
def test_pre_commit_hook_keys_the_index_git_hands_it(
    make_repo: Callable[..., Path], tmp_path: Path, commit_args: list[str]
) -> None:
    top = make_repo(files={"tracked.txt": "1\n", ".gitignore": "*.log\n"})
    out = tmp_path / "hook-out"
    out.mkdir()
    write(
        top,
        ".git/hooks/pre-commit",
        HOOK.format(out=shlex.quote(str(out)), python=shlex.quote(sys.executable)),
    )
    (top / ".git/hooks/pre-commit").chmod(0o755)
    write(top, "forced.log", "staged but ignored\n")
    git(top, "add", "-f", "forced.log")
    write(top, "tracked.txt", "2\n")
    git(top, "commit", "-q", "-m", "hooked", *commit_args, env={"PYTHONPATH": str(REPO_ROOT)})
    assert (out / "correx.err").read_text() == ""
    assert (out / "correx").read_text() == (out / "ref").read_text()
    assert (out / "index-path").read_text() != str(top / ".git" / "index")
    if commit_args[0] == "--":  # a partial commit's index lacks forced.log
        assert (out / "correx").read_text() != (out / "main").read_text()


def test_cli_prints_the_key_and_nothing_else(repo: Path, correx: Correx) -> None:
    write(repo, "new.txt")
    result = correx(repo, "state")
    assert (result.code, result.stdout, result.stderr) == (0, reference_key(repo) + "\n", ""), (
        result
    )


def test_cli_json_reports_a_dirty_workspace(repo: Path, correx: Correx) -> None:
    write(repo, "README.md", "edited\n")
    result = correx(repo, "state", "--json")
    assert result.code == 0, result
    head = git(repo, "rev-parse", "HEAD^{tree}").strip()
    expected = {"state_key": reference_key(repo), "head_tree": head, "dirty": True}
    assert json.loads(result.stdout) == expected


def test_cli_json_reports_a_clean_workspace(repo: Path, correx: Correx) -> None:
    result = correx(repo, "state", "--json")
    head = git(repo, "rev-parse", "HEAD^{tree}").strip()
    assert json.loads(result.stdout) == {"state_key": head, "head_tree": head, "dirty": False}


def test_cli_json_reports_an_unborn_head_as_null(
    make_repo: Callable[..., Path], correx: Correx
) -> None:
    top = make_repo(commit=False)
    data = json.loads(correx(top, "state", "--json").stdout)
    assert data == {"state_key": reference_key(top), "head_tree": None, "dirty": True}


def test_embedded_repository_warning_is_not_shown(repo: Path, correx: Correx) -> None:
    git(repo, "init", "-q", "emb")
    write(repo, "emb/x.txt")
    git(repo / "emb", "add", "x.txt")
    git(repo / "emb", "commit", "-q", "-m", "e")
    result = correx(repo, "state")
    assert (result.code, result.stderr) == (0, ""), result


def test_embedded_repository_without_commit_is_unavailable(repo: Path, correx: Correx) -> None:
    git(repo, "init", "-q", "emb")
    write(repo, "emb/x.txt")
    before = snapshot(repo)
    result = correx(repo, "state")
    assert result.code == 3, result
    assert "does not have a commit checked out" in result.stderr
    assert "yours was not touched" in result.stderr
    assert snapshot(repo) == before
    assert not list((repo / ".git").glob(TEMP_INDEX_PREFIX + "*"))


def test_bare_repository_is_refused_with_exit_2(tmp_path: Path, correx: Correx) -> None:
    git(tmp_path, "init", "-q", "--bare", "bare.git")
    result = correx(tmp_path / "bare.git", "state")
    assert result.code == 2, result
    assert "bare repository" in result.stderr


def test_outside_any_repository_is_refused_with_exit_2(tmp_path: Path, correx: Correx) -> None:
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    result = correx(lonely, "state", env={"GIT_CEILING_DIRECTORIES": str(tmp_path)})
    assert result.code == 2, result
    assert "not inside a git repository" in result.stderr
