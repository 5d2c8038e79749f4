"""`git correx help [COMMAND…]`: the man page's text, without man.

`git correx --help` is turned by git into `man git-correx`, which needs the page installed
(it is, by pip, pipx and uv, into share/man/man1); this command prints the same text
wherever git correx runs.
"""

from __future__ import annotations

import click

from gitcorrex.model.conclusion import Conclusion


@click.command(name="help")
@click.argument("words", nargs=-1, metavar="[COMMAND]...")
def help_command(words: tuple[str, ...]) -> Conclusion:
    """Print the manual, or the part about COMMAND (e.g. `git correx help plan lock`)."""
    from gitcorrex.cli.manual import command_text, text_page

    root = click.get_current_context().find_root().command
    if not isinstance(root, click.Group):
        raise TypeError("help runs under the root group")
    click.echo(command_text(root, words) if words else text_page(root), nl=False)
    return Conclusion.OK
