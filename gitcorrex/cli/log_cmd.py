"""`git correx log`: commits with the verification status of their trees (usually answered
by cli/startup.py, which holds the body both paths run)."""

from __future__ import annotations

import click

from gitcorrex.cli.options import json_option
from gitcorrex.model.conclusion import Conclusion


@click.command()
@click.argument("revisions", nargs=-1, metavar="[RANGE]")
@click.option("-n", "--max-count", "limit", type=click.IntRange(min=1), default=None,
              help="Show at most this many commits.")
@click.option("--all", "show_all", is_flag=True,
              help="Show every commit: no screenful limit when no RANGE is given.")
@click.option("--verify-signatures", is_flag=True,
              help="Show who signed the ledger commit that recorded each status.")
@json_option
def log(revisions: tuple[str, ...], limit: int | None, show_all: bool,
        verify_signatures: bool, as_json: bool) -> Conclusion:
    """One line per commit of RANGE, newest first: its tree's latest verification.

    With no RANGE, a screenful of HEAD's history, as `git log` shows in a pager: the
    terminal's height less two lines when stdout is a terminal, else the newest 20 commits;
    stderr says when more were left out (-n N or --all for more). A RANGE is shown whole.

    ✓ pass, ✗ fail, ? unavailable, - none (unverified), ≠ a pass under another profile
    than the tree's own (never counted); [flaky: …] when the tree both failed and passed
    under the same profile and environment. Keyed by tree: a rebased commit with an
    identical tree shows the same status. Reads only; exit 0.
    """
    from gitcorrex.cli.log_render import print_log

    return print_log(revisions=revisions, limit=limit, show_all=show_all,
                     verify_signatures=verify_signatures, as_json=as_json)
