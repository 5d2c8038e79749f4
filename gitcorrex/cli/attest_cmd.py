"""`git correx attest`: recorded observations as in-toto statements."""

from __future__ import annotations

import json

import click

from gitcorrex.cli.options import start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable


@click.command()
@click.argument("rev", default="HEAD")
@click.option("--format", "output_format", type=click.Choice(["in-toto"]), default="in-toto",
              show_default=True, help="Statement format.")
def attest(rev: str, output_format: str) -> Conclusion:
    """Print each verification recorded on REV's tree (default HEAD) as an in-toto
    Statement v1, one JSON document per line: subject digest `gitTree`, predicate
    test-result v0.1, configuration = the profile blob. Unsigned.

    Exit 0 with at least one statement, 1 when the tree has no verification.
    """
    from gitcorrex.attest.in_toto import attest_tree
    from gitcorrex.git import discover

    result = attest_tree(discover(start_dir()), rev=rev)
    for item in result.statements:
        click.echo(json.dumps(item, sort_keys=True, ensure_ascii=True, separators=(",", ":")))
    if not result.statements:
        click.echo(printable(f"git correx: no verification recorded on {rev}'s tree "
                             f"{result.tree}: nothing to attest"), err=True)
    return result.conclusion
