"""`git correx state`: the workspace's state key (usually served by cli/fast.py)."""

from __future__ import annotations

import click

from gitcorrex.cli.fast import state_text
from gitcorrex.cli.options import json_option, start_dir
from gitcorrex.model.conclusion import Conclusion


@click.command()
@json_option
def state(as_json: bool) -> Conclusion:
    """Print the state key: the tree `git add -A && git write-tree` would record.

    Computed through a throwaway index; your index, HEAD and files are not touched.
    JSON: {"state_key", "head_tree", "dirty"}.
    """
    click.echo(state_text(start_dir(), as_json=as_json), nl=False)
    return Conclusion.OK
