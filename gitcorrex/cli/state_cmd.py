"""`git correx state`: the workspace's state key."""

from __future__ import annotations

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir


@click.command()
@json_option
def state(as_json: bool) -> int:
    """Print the state key: the tree `git add -A && git write-tree` would record.

    Computed through a throwaway index; your index, HEAD and files are not touched.
    """
    from gitcorrex.git.repository import discover_with_git
    from gitcorrex.git.state import compute_state

    result = compute_state(discover_with_git(start_dir()))
    if as_json:
        emit_json({"state_key": result.state_key, "head_tree": result.head_tree,
                   "dirty": result.dirty})
    else:
        click.echo(result.state_key)
    return 0
