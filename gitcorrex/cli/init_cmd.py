"""`git correx init`: write a starter `.correx.toml` detected from the repository."""

from __future__ import annotations

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir


@click.command()
@json_option
def init(as_json: bool) -> int:
    """Write a starter .correx.toml at the repository root (never overwrites one).

    Detects Python with pytest, npm scripts, Go, Cargo or a Makefile with a `test:`
    target (the first found wins); otherwise writes a commented template to fill in.
    """
    from gitcorrex.git.repository import discover_with_git
    from gitcorrex.profiles.starter import write_starter_profile

    result = write_starter_profile(discover_with_git(start_dir()).root)
    if as_json:
        emit_json(result)
        return 0
    if result.detected is None:
        click.echo("no build system detected: wrote a commented template; fill in "
                   "[commands] and defaults.expectation")
    else:
        click.echo(f"detected {result.detected} ({result.evidence})")
    click.echo(f"wrote {result.path}")
    for name, run in result.commands.items():
        click.echo(f"  {name}: {run}")
    if result.gitignore:
        click.echo(f"make sure these build outputs are gitignored: {' '.join(result.gitignore)}")
    return 0
