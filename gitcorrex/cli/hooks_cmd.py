"""`git correx hooks install|uninstall|status` and the internal `git correx hook run`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gitcorrex.cli.hook_run import HOOK_NAMES, run_hook
from gitcorrex.cli.options import emit_json, json_option, start_dir

if TYPE_CHECKING:
    from gitcorrex.hooks.install import HooksResult


@click.group()
def hooks() -> None:
    """Install, remove or inspect the git hooks that enforce write manifests."""


@hooks.command()
@click.option("--pre-push", "pre_push", is_flag=True, help="Also install the pre-push hook.")
@json_option
def install(pre_push: bool, as_json: bool) -> int:
    """Install pre-commit and pre-merge-commit (and pre-push) for this repository.

    An existing hook is kept as <name>.correx-chained and run first. Idempotent.
    core.hooksPath outside the repository: exit 2 with the lines to add there instead.
    """
    import sys

    from gitcorrex.git.repository import discover_with_git
    from gitcorrex.hooks.install import install_hooks

    result = install_hooks(discover_with_git(start_dir()), python=sys.executable,
                           pre_push=pre_push)
    _print_actions(result, as_json)
    return 0


@hooks.command()
@json_option
def uninstall(as_json: bool) -> int:
    """Remove git correx's hooks and restore the hooks they chained."""
    from gitcorrex.git.repository import discover_with_git
    from gitcorrex.hooks.install import uninstall_hooks

    _print_actions(uninstall_hooks(discover_with_git(start_dir())), as_json)
    return 0


@hooks.command()
@json_option
def status(as_json: bool) -> int:
    """Show the hooks directory git uses and what each hook file there is."""
    from gitcorrex.git.repository import discover_with_git
    from gitcorrex.hooks.status import hooks_status

    result = hooks_status(discover_with_git(start_dir()))
    if as_json:
        emit_json(result.as_dict())
        return 0
    hooks_path = f" (core.hooksPath={result.hooks_path})" if result.hooks_path else ""
    click.echo(f"hooks directory: {result.hooks_dir}{hooks_path}")
    for hook in result.hooks:
        detail = f" v{hook.version}, python {hook.python}" if hook.version else ""
        chained = f", chains {hook.chained}" if hook.chained else ""
        mode = "" if hook.state == "absent" or hook.executable else ", NOT executable"
        click.echo(f"  {hook.name}: {hook.state}{detail}{chained}{mode}")
    click.echo(f"stage: {result.stage or '(none: every commit is allowed)'}")
    return 0


def _print_actions(result: HooksResult, as_json: bool) -> None:
    if as_json:
        emit_json(result.as_dict())
        return
    click.echo(f"hooks directory: {result.hooks_dir}")
    for action in result.actions:
        note = f" (runs {action.chained} first)" if action.chained else ""
        if action.action == "restored":
            note = f" (put back {action.chained})"
        click.echo(f"  {action.name}: {action.action}{note}")


@click.group(hidden=True)
def hook() -> None:
    """Internal: what the installed hook scripts run."""


@hook.command("run", context_settings={"ignore_unknown_options": True})
@click.argument("name", type=click.Choice(HOOK_NAMES))
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def run(name: str, args: tuple[str, ...]) -> int:
    """Check what git is about to commit (or push) against the stage's write manifest.

    Exit 0 allowed, 1 blocked (recorded as a tool_call_assessed event), other non-zero
    codes when the check could not run (the hook fails closed).
    """
    return run_hook(name, args)
