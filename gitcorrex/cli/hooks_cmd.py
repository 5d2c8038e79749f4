"""`git correx hooks install|uninstall|status` and the internal `git correx hook run`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from gitcorrex.agents.hosts import AGENTS
from gitcorrex.cli.hook_run import HOOK_NAMES, run_hook
from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable

if TYPE_CHECKING:
    from gitcorrex.hooks.install import HooksResult


@click.group()
def hooks() -> None:
    """Install, remove or inspect the git hooks that enforce write manifests."""


@hooks.command()
@click.option("--pre-push", "pre_push", is_flag=True, help="Also install the pre-push hook.")
@click.option("--agent", type=click.Choice(list(AGENTS)),
              help="Instead: merge the agent's hooks into its project settings file.")
@click.option("--shared", is_flag=True,
              help="With --agent: the settings file a team commits, with a portable "
                   "`git correx` command (no path of this machine).")
@click.option("--print", "print_only", is_flag=True,
              help="With --agent: print the merged settings instead of writing them.")
@json_option
def install(pre_push: bool, agent: str | None, shared: bool, print_only: bool,
            as_json: bool) -> Conclusion:
    """Install pre-commit and pre-merge-commit (and pre-push) for this repository.

    An existing hook is kept as <name>.correx-chained and run first. Idempotent.
    core.hooksPath outside the repository: exit 2 with the lines to add there instead.
    With --agent: Claude Code .claude/settings.local.json (this machine only, kept out of
    git, fails closed), or with --shared .claude/settings.json; Codex .codex/hooks.json,
    Gemini CLI .gemini/settings.json, Cursor .cursor/hooks.json or Copilot CLI
    .github/hooks/git-correx.json (these hosts have no local file: always the portable
    command), merged (other settings kept).
    """
    import sys

    from gitcorrex.git import discover
    from gitcorrex.hooks.install import install_hooks

    if agent is not None or print_only or shared:
        return _install_agent(agent, shared, print_only, as_json)
    result = install_hooks(discover(start_dir()), python=sys.executable,
                           pre_push=pre_push)
    _print_actions(result, as_json)
    return Conclusion.OK


@hooks.command()
@json_option
def uninstall(as_json: bool) -> Conclusion:
    """Remove git correx's hooks and restore the hooks they chained."""
    from gitcorrex.git import discover
    from gitcorrex.hooks.install import uninstall_hooks

    _print_actions(uninstall_hooks(discover(start_dir())), as_json)
    return Conclusion.OK


@hooks.command()
@json_option
def status(as_json: bool) -> Conclusion:
    """Show the hooks directory git uses and what each hook file there is."""
    from gitcorrex.git import discover
    from gitcorrex.hooks.status import hooks_status

    result = hooks_status(discover(start_dir()))
    if as_json:
        emit_json(result.as_dict())
        return Conclusion.OK
    hooks_path = f" (core.hooksPath={result.hooks_path})" if result.hooks_path else ""
    click.echo(printable(f"hooks directory: {result.hooks_dir}{hooks_path}"))
    for hook in result.hooks:
        detail = f" v{hook.version}, python {hook.python}" if hook.version else ""
        chained = f", chains {hook.chained}" if hook.chained else ""
        mode = "" if hook.state == "absent" or hook.executable else ", NOT executable"
        click.echo(printable(f"  {hook.name}: {hook.state}{detail}{chained}{mode}"))
    click.echo(printable(f"stage: {result.stage or '(none: every commit is allowed)'}"))
    return Conclusion.OK


def _install_agent(agent: str | None, shared: bool, print_only: bool,
                   as_json: bool) -> Conclusion:
    import sys

    from gitcorrex.agents.install import install_agent
    from gitcorrex.errors import UsageError
    from gitcorrex.git import discover

    if agent is None:
        raise UsageError("--print and --shared need --agent",
                         hint="git correx hooks install --agent claude-code --shared --print")
    result = install_agent(discover(start_dir()), agent, python=sys.executable,
                           write=not print_only, shared=shared)
    scope = ("shared: commit it; portable command" if result.shared else
             "local: this machine only, kept out of git; fails closed")
    if as_json:
        emit_json({**result.as_dict(), "settings": json.loads(result.text)})
    elif print_only:
        click.echo(printable(f"# {result.path} ({scope})"), err=True)
        click.echo(result.text, nl=False)
    else:
        click.echo(printable(f"{result.agent}: {result.action} {result.path} ({scope})"))
        if result.excluded:
            click.echo(printable(f"  added to {result.excluded}"))
    return Conclusion.OK


def _print_actions(result: HooksResult, as_json: bool) -> None:
    if as_json:
        emit_json(result.as_dict())
        return
    click.echo(printable(f"hooks directory: {result.hooks_dir}"))
    for action in result.actions:
        note = f" (runs {action.chained} first)" if action.chained else ""
        if action.action == "restored":
            note = f" (put back {action.chained})"
        click.echo(printable(f"  {action.name}: {action.action}{note}"))


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
