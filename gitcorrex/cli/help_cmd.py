"""`git correx help [COMMAND…]`: the man page's text, without man.

`git correx --help` is turned by git into `man git-correx`, which needs the page installed
(it is, by pip, pipx and uv, into share/man/man1); this command prints the same text
wherever git correx runs.
"""

from __future__ import annotations

import click


@click.command(name="help")
@click.argument("words", nargs=-1, metavar="[COMMAND]...")
def help_command(words: tuple[str, ...]) -> int:
    """Print the manual, or the part about COMMAND (e.g. `git correx help plan lock`)."""
    from gitcorrex.cli.reference import command_text, text_page

    click.echo(command_text(words) if words else text_page(), nl=False)
    return 0
