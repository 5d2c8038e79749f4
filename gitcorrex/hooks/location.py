"""Which hooks directory git uses, and whether git correx may write into it.

We write only inside the repository (its work tree or git directory). A `core.hooksPath`
elsewhere is shared with other repositories or owned by another tool (a hook manager, a
company-wide directory, `/dev/null` to switch hooks off): we refuse and print the exact
lines that chain our hook from there instead.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository, config_value, hooks_dir
from gitcorrex.hooks.script_templates import COMMIT_HOOKS

HOOKS_PATH_CONFIG = "core.hooksPath"


@dataclass(frozen=True)
class HooksLocation:
    """The directory git runs hooks from here, the `core.hooksPath` behind it (if any), and
    whether it lies inside this repository."""

    path: Path
    hooks_path: str | None
    inside: bool


def locate_hooks(repo: Repository, *, cwd: Path | None = None) -> HooksLocation:
    """Ask git where hooks run for the work tree at `cwd` (default: the repository's)."""
    where = cwd or repo.work_tree or repo.git_dir
    path = hooks_dir(where)
    configured = config_value(repo, HOOKS_PATH_CONFIG, cwd=where)
    roots = [repo.git_dir, repo.common_dir, where, *([repo.work_tree] if repo.work_tree else [])]
    return HooksLocation(path, configured, any(_is_within(path, root) for root in roots))


def writable_location(repo: Repository, *, python: str,
                      names: tuple[str, ...] = COMMIT_HOOKS) -> HooksLocation:
    """The location to install into; outside the repository → ConfigError (exit 2) whose
    message is the recipe to chain our hook from that directory."""
    location = locate_hooks(repo)
    if not location.inside:
        raise ConfigError(outside_message(location, python=python, names=names),
                          hint=f"or unset it (`git config --unset {HOOKS_PATH_CONFIG}`) "
                               "and run `git correx hooks install` again")
    return location


def outside_message(location: HooksLocation, *, python: str, names: tuple[str, ...]) -> str:
    """The refusal, with one line per hook to append to the hooks in that directory."""
    lines = [f"{HOOKS_PATH_CONFIG} is {location.hooks_path!r} ({location.path}), outside this "
             "repository: git correx does not write there.",
             "To run the manifest check from those hooks, add this line to each of them "
             "(create the file with `#!/bin/sh` first and `chmod +x` it if it does not exist):"]
    for name in names:
        lines.append(f"  {location.path / name}:")
        lines.append(f"    {chain_line(name, python=python)}")
    return "\n".join(lines)


def chain_line(name: str, *, python: str) -> str:
    """One shell line that runs our check for hook `name` and stops the hook if it fails."""
    code = ('import sys; sys.path[:1] = [p for p in sys.path[:1] if p]; '
            'from gitcorrex.cli import main; main(["hook", "run", *sys.argv[1:]])')
    return f'{shlex.quote(python)} -c {shlex.quote(code)} {name} "$@" || exit $?'


def _is_within(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True
