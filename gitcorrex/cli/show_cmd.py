"""`git correx show`: what is known about a tree."""

from __future__ import annotations

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable_lines


@click.command()
@click.argument("rev", required=False)
@click.option("--worktree", is_flag=True, help="The current workspace state (the default).")
@json_option
def show(rev: str | None, worktree: bool, as_json: bool) -> Conclusion:
    """List the events recorded on REV's tree (default: the current state key), newest first.

    No events means the tree is unverified, never that it passed; a pass that ran another
    profile than the tree's own is `≠ pass under another profile`.
    """
    from gitcorrex.errors import UsageError
    from gitcorrex.git import compute_state, discover
    from gitcorrex.review.describe import describe_event
    from gitcorrex.review.show import show_tree

    if rev is not None and worktree:
        raise UsageError("give either REV or --worktree, not both",
                         hint="`git correx show HEAD` or `git correx show --worktree`")
    if rev is None:
        repo = discover(start_dir())
        result = show_tree(repo, rev=None, state_key=compute_state(repo).state_key)
    else:
        result = show_tree(discover(start_dir()), rev=rev, state_key=None)
    for problem in result.problems:
        click.echo(f"git correx: ledger problem: {problem.describe()}", err=True)
    if as_json:
        from gitcorrex.api.results import ShowResult  # the API's model: one document

        emit_json(ShowResult.of(result))
        return Conclusion.OK
    click.echo(f"tree {result.tree} ({result.source}): {len(result.events)} event(s)")
    for event in result.events:
        click.echo(printable_lines(describe_event(event, result.counts)))
    return Conclusion.OK
