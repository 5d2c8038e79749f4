"""The root click group; failures go to the one error boundary (cli/boundary.py).

Command modules import their use-cases inside the command body: pydantic and pygit2 cost
~200 ms to import, and `git correx state` must stay close to git's own speed.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from gitcorrex import __version__
from gitcorrex.cli.boundary import run_guarded
from gitcorrex.cli.tree import give_full_summaries

if TYPE_CHECKING:
    from gitcorrex.cli.head_start import HeadStart
    from gitcorrex.model.conclusion import Conclusion


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="git correx",
                      message="%(prog)s %(version)s")
def root() -> None:
    """Verified workspace states for coding agents, recorded as facts in git notes.

    Exit codes: 0 ok/pass, 1 check failed, 2 usage or configuration error,
    3 unavailable (also a full disk, a read-only file system, missing permissions),
    4 internal error, 128+N stopped by signal N (130 Ctrl-C, 143 SIGTERM).

    `git correx COMMAND -h` shows a command's options; `git correx help [COMMAND]` prints
    the manual (also `man git-correx`).
    """


def run(argv: list[str] | None, *, head_start: HeadStart | None = None) -> int:
    """Run the CLI and return the exit code instead of exiting (tests call this).
    `head_start` is verify's scan begun before click loaded (cli/head_start.py)."""
    return run_guarded(lambda: invoke(argv, head_start))


def invoke(argv: list[str] | None, head_start: HeadStart | None = None) -> Conclusion | int:
    """The command's conclusion, or the code click itself ended with (`--help`: 0); click's
    usage errors and every failure are raised to the boundary the caller runs it in (`run`'s,
    or the agent hook's own, cli/agent_hook.py). An operator command is refused first inside
    an agent runtime (cli/operator_guard.py)."""
    import os

    from gitcorrex.cli.operator_guard import guard_operator_command

    guard_operator_command(sys.argv[1:] if argv is None else argv, os.environ)
    _register_commands()
    ended: Conclusion | int = root.main(args=argv, prog_name="git correx",
                                        standalone_mode=False, obj=head_start)
    return ended


def _register_commands() -> None:
    """Import command modules (cheap: they import their use-cases lazily)."""
    if root.commands:
        return
    from gitcorrex.cli.commands import ALL

    for command in ALL:
        root.add_command(command)
    give_full_summaries(root)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 2000))
