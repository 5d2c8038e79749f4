"""`git correx init`: write a starter `.correx.toml` detected from the repository."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable

if TYPE_CHECKING:
    from gitcorrex.profiles.starter import InitResult

NEXT = 'next: git add .correx.toml && git commit -m "Add git correx profile" && git correx verify'


@click.command()
@click.option("--exclude", is_flag=True,
              help="Add the ecosystem's build outputs that git would still add (such as "
                   "__pycache__/) to .git/info/exclude; also with an existing profile.")
@json_option
def init(exclude: bool, as_json: bool) -> Conclusion:
    """Write a starter .correx.toml at the repository root (never overwrites one).

    Detects Python with pytest, npm scripts, Go, Cargo or a Makefile with a `test:`
    target (the first found wins); otherwise writes a commented template to fill in.
    Names the build outputs git would add (a command that writes them changes the state
    key, so its verification cannot pass); --exclude ignores them in .git/info/exclude.
    Environment directories git would add (a virtualenv, node_modules/, a tool's cache)
    are always excluded there, and named.
    """
    from gitcorrex.git import discover
    from gitcorrex.profiles.starter import write_starter_profile

    result = write_starter_profile(discover(start_dir()), exclude=exclude)
    if as_json:
        emit_json(result)
        return Conclusion.OK
    for line in _lines(result):
        click.echo(printable(line))
    return Conclusion.OK


def _lines(result: InitResult) -> list[str]:
    """What was detected and written, what git would still add, what to do next."""
    lines = []
    if not result.created:
        lines.append(f"kept {result.path} (it exists)")
    elif result.detected is None:
        lines.append("no build system detected: wrote a commented template; fill in "
                     "[commands] and defaults.expectation")
    else:
        lines.append(f"detected {result.detected} ({result.evidence})")
    if result.created:
        lines.append(f"wrote {result.path}")
        lines += [f"  {name}: {run}" for name, run in result.commands.items()]
    if result.excluded:
        lines.append(f"ignored in {result.exclude_file}: {' '.join(result.excluded)}")
    lines += [f"excluded {env.path}/ in {result.exclude_file}: {env.what}, not the project "
              "(it would enter every state key)" for env in result.environments]
    if result.unignored:
        lines += [f"not ignored yet: {' '.join(result.unignored)} (a command that writes them "
                  "changes the state key)",
                  "  add them to .gitignore, or run `git correx init --exclude` to add them "
                  "to .git/info/exclude"]
    if result.created:
        lines.append(NEXT)
    return lines
