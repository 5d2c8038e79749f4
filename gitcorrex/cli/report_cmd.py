"""`git correx report`: a PR-ready summary of the ledger for a range of commits."""

from __future__ import annotations

import click

from gitcorrex.cli.options import emit_json, start_dir
from gitcorrex.model.conclusion import Conclusion


@click.command()
@click.argument("revisions", nargs=-1, metavar="[RANGE]")
@click.option("--format", "output_format", type=click.Choice(["markdown", "json"]),
              default="markdown", show_default=True, help="Markdown for people, JSON for tools.")
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--max-bytes", type=click.IntRange(min=0), default=1024 * 1024,
              show_default=True,
              help="Largest Markdown output (GitHub's job summary limit); the oldest commits "
              "are left out, and said, when it would be larger. 0: no limit.")
def report(revisions: tuple[str, ...], output_format: str, as_json: bool,
           max_bytes: int) -> Conclusion:
    """Per commit of RANGE, oldest first: verifications, manifest checks, grounding
    verdicts and session outcomes, with failing output tails collapsed.

    With no RANGE: the branch since its merge base with its upstream or the default branch
    (origin/HEAD, main, master), said in the output; the newest 20 commits when HEAD adds
    nothing to any. A run of commits with nothing recorded is one line. Each verification
    line counts runs (reuses fold into the run they cite) and marks a tree that both failed
    and passed under the same profile and environment as flaky.

    Every recorded text is escaped (Markdown, HTML, control and bidi characters), so the
    output is safe to post as a PR comment or a job summary. Reads only; exit 0.
    """
    from gitcorrex.git import discover
    from gitcorrex.review.report import build_report

    result = build_report(discover(start_dir()), revisions=list(revisions))
    for problem in result.problems:
        click.echo(f"git correx: ledger problem: {problem.describe()}", err=True)
    if as_json or output_format == "json":
        from gitcorrex.review.report_json import report_as_dict

        emit_json(report_as_dict(result))
    else:
        from gitcorrex.review.report_markdown import render_markdown

        click.echo(render_markdown(result, max_bytes=max_bytes or None), nl=False)
    return Conclusion.OK
