"""`git correx log`: commits with the verification status of their trees."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir

if TYPE_CHECKING:
    from gitcorrex.review.log import LogLine


@click.command()
@click.argument("revisions", nargs=-1, metavar="[RANGE]")
@click.option("-n", "--max-count", "limit", type=click.IntRange(min=1), default=None,
              help="Show at most this many commits.")
@click.option("--verify-signatures", is_flag=True,
              help="Show who signed the ledger commit that recorded each status.")
@json_option
def log(revisions: tuple[str, ...], limit: int | None, verify_signatures: bool,
        as_json: bool) -> int:
    """One line per commit of RANGE (default HEAD): its tree's latest verification.

    ✓ pass, ✗ fail, ? unavailable, - none (unverified). Keyed by tree: a rebased commit
    with an identical tree shows the same status. Reads only; exit 0.
    """
    from gitcorrex.git.repository import discover_in_process
    from gitcorrex.review.log import log_commits

    result = log_commits(discover_in_process(start_dir()), revisions=list(revisions),
                         limit=limit, verify_signatures=verify_signatures)
    for problem in result.problems:
        click.echo(f"git correx: ledger problem: {problem.describe()}", err=True)
    if as_json:
        emit_json({"commits": [line.as_dict() for line in result.lines],
                   "problems": [problem.as_dict() for problem in result.problems]})
        return 0
    click.echo("".join(render_line(line) + "\n" for line in result.lines), nl=False)
    return 0


def render_line(line: LogLine) -> str:
    """`<sha12> <mark> <result> [<expectation> by <who> <when>] <subject>[  <signer>]`."""
    from gitcorrex.model.note_lines import printable

    status = line.status
    text = f"{line.commit.sha[:12]} {status.mark} {status.result:<11}"
    if status.at is not None:
        reason = f" [{status.reason}]" if status.reason else ""
        text += f" {printable(status.expectation or '')}{reason} by {printable(status.by or '')}"
        text += f" {status.at[:19]}Z"
    text += f"  {printable(line.commit.subject)}"
    if line.signer is not None:
        text += f"  [{printable(line.signer.describe())}]"
    return text
