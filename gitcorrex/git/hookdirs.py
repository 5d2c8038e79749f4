"""Where git looks for hooks, and the configuration that decides it, asked of git itself.

`git rev-parse --git-path hooks` is git's own answer: it honours `core.hooksPath` (also
from `-c`, `GIT_CONFIG_PARAMETERS` and worktree config) and linked worktrees. The value of
`core.hooksPath` itself is read like every other key, through `config.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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
