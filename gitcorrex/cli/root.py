"""The root click group; failures go to the one error boundary (cli/boundary.py).

Command modules import their use-cases inside the command body: pydantic and pygit2 cost
~200 ms to import, and `git correx state` must stay close to git's own speed.
"""

from __future__ import annotations

import sys

import click

from gitcorrex import __version__
from gitcorrex.cli.boundary import run_guarded
from gitcorrex.cli.tree import give_full_summaries
from gitcorrex.errors import ExitCode


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


def run(argv: list[str] | None) -> int:
    """Run the CLI and return the exit code instead of exiting (tests call this)."""
    _register_commands()
    return run_guarded(lambda: _invoke(argv))


def _invoke(argv: list[str] | None) -> int:
    """click's own outcomes here; every other failure goes to the boundary (boundary.py)."""
    try:
        result = root.main(args=argv, prog_name="git correx", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.UsageError as exc:
        show_usage_error(exc)
        return ExitCode.USAGE
    except click.ClickException as exc:
        exc.show()
        return ExitCode.USAGE
    except click.Abort as exc:  # click turned a signal into Abort: hand the signal on
        raise (exc.__cause__ or KeyboardInterrupt()) from None
    return int(result) if isinstance(result, int) else ExitCode.OK


def show_usage_error(exc: click.UsageError) -> None:
    """Click's message, pointing at `-h` and `help`: git turns `git correx --help` into
    `man git-correx`, which only works where the man page is installed."""
    if exc.ctx is not None:
        words = exc.ctx.command_path.split()[2:]
        click.echo(exc.ctx.get_usage(), err=True)
        click.echo(f"Try '{exc.ctx.command_path} -h' or "
                   f"'git correx help {' '.join(words)}'.".replace(" '.", "'."), err=True)
    click.echo(f"\nError: {exc.format_message()}", err=True)


def _register_commands() -> None:
    """Import command modules (cheap: they import their use-cases lazily)."""
    if root.commands:
        return
    from gitcorrex.cli import commands

    for command in commands.ALL:
        root.add_command(command)
    give_full_summaries(root)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 2000))
