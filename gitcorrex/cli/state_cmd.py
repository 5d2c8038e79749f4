"""`git correx state`: the workspace's state key (usually answered by cli/startup.py)."""

from __future__ import annotations

import click

from gitcorrex.cli.options import json_option
from gitcorrex.model.conclusion import Conclusion


@click.command()
@json_option
def state(as_json: bool) -> Conclusion:
    """Print the state key: the tree `git add -A && git write-tree` would record.

    Computed through a throwaway index; your index, HEAD and files are not touched.
    JSON: {"state_key", "head_tree", "dirty"}.
    """
    from gitcorrex.cli.startup import print_state

    return print_state(as_json=as_json)
