"""Where git looks for hooks, and the configuration that decides it, asked of git itself.

`git rev-parse --git-path hooks` is git's own answer: it honours `core.hooksPath` (also
from `-c`, `GIT_CONFIG_PARAMETERS` and worktree config) and linked worktrees. Config values
are read with the git binary rather than libgit2 for the same reason, and because a hook
must not pay for importing pygit2 just to learn that no stage is selected.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gitcorrex.errors import GitCommandError
from gitcorrex.git.process import decode_path, run_git
from gitcorrex.git.repository import Repository


@dataclass(frozen=True)
class Worktree:
    """One entry of `git worktree list --porcelain`; `bare` entries have no work tree."""

    path: Path
    bare: bool
    prunable: bool


def hooks_dir(cwd: Path) -> Path:
    """The absolute directory git runs hooks from for the work tree (or git dir) at `cwd`."""
    args = ["rev-parse", "--path-format=absolute", "--git-path", "hooks"]
    return Path(decode_path(run_git(args, cwd=cwd).stdout).rstrip("\n"))


def git_config(repo: Repository, key: str, *, cwd: Path | None = None) -> str | None:
    """One config value as git sees it from `cwd` (default: the repository); None if unset."""
    where = cwd or repo.work_tree or repo.git_dir
    result = run_git(["config", "--get", key], cwd=where, check=False)
    if result.returncode == 1 and not result.stdout:
        return None
    if result.returncode != 0:
        raise GitCommandError(["git", "config", "--get", key], result.returncode,
                              decode_path(result.stderr))
    return decode_path(result.stdout).rstrip("\n")


def git_config_values(repo: Repository, keys: tuple[str, ...]) -> dict[str, str]:
    """Several lower-case config keys in one `git config` process (the last value of each
    wins, as `--get` gives it); a key that is unset is absent from the result."""
    pattern = "^(" + "|".join(key.replace(".", "\\.") for key in keys) + ")$"
    where = repo.work_tree or repo.git_dir
    result = run_git(["config", "-z", "--get-regexp", pattern], cwd=where, check=False)
    if result.returncode == 1 and not result.stdout:
        return {}
    if result.returncode != 0:
        raise GitCommandError(["git", "config", "-z", "--get-regexp", pattern],
                              result.returncode, decode_path(result.stderr))
    values: dict[str, str] = {}
    for record in decode_path(result.stdout).split("\0"):
        key, _, value = record.partition("\n")
        if key in keys:
            values[key] = value
    return values


def list_worktrees(repo: Repository) -> list[Worktree]:
    """Every worktree of the repository, the main one first (`git worktree list`)."""
    out = decode_path(run_git(["worktree", "list", "--porcelain"], cwd=repo.git_dir).stdout)
    found = []
    for block in out.split("\n\n"):
        lines = [line for line in block.split("\n") if line]
        if not lines or not lines[0].startswith("worktree "):
            continue
        found.append(Worktree(Path(lines[0].removeprefix("worktree ")),
                              bare="bare" in lines,
                              prunable=any(line.startswith("prunable") for line in lines)))
    return found
