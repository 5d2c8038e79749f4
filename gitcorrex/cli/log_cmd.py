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
@click.option("--verify-signatures", is_flag=True,
              help="Show who signed the ledger commit that recorded each status.")
@json_option
def log(revisions: tuple[str, ...], limit: int | None, verify_signatures: bool,
        as_json: bool) -> Conclusion:
    """One line per commit of RANGE (default HEAD): its tree's latest verification.

    ✓ pass, ✗ fail, ? unavailable, - none (unverified), ≠ a pass under another profile
    than the tree's own (never counted). Keyed by tree: a rebased commit with an identical
    tree shows the same status. Reads only; exit 0.
    """
    from gitcorrex.cli.log_render import print_log

    return print_log(revisions=revisions, limit=limit, verify_signatures=verify_signatures,
                     as_json=as_json)
