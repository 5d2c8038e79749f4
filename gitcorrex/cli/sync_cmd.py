"""`git correx sync [REMOTE] [--compact]`: share the ledger through a git remote."""

from __future__ import annotations

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir
from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable


@click.command()
@click.argument("remote", default="origin")
@click.option("--compact", is_flag=True,
              help="Fold every writer ref into the shared ref and retire the ones it holds "
                   "(for CI or a scheduled job).")
@json_option
def sync(remote: str, compact: bool, as_json: bool) -> Conclusion:
    """Fetch REMOTE's ledger refs (default origin), unite them with yours, publish yours.

    Fetches the shared refs/notes/correx and every writer ref refs/notes/correx-writers/*
    with explicit refspecs, unites the notes line by line (anchors kept) and pushes the
    result to this clone's own writer ref (git config correx.writer), which no other clone
    updates, and to the shared ref when that is a fast-forward. Never changes remote.*
    config. Exit 0 in sync, 1 a session diverged between clones (nothing written), 3 the
    remote refused, kept winning races, or git failed.
    """
    from gitcorrex.git import discover
    from gitcorrex.sync.ledger_sync import sync_ledger

    result = sync_ledger(discover(start_dir()), remote=remote, compact=compact)
    if as_json:
        emit_json(result.as_dict())
    else:
        click.echo(printable(result.describe()))
    for race in result.lost_races:
        click.echo(printable(f"git correx: lost a race (retried or left to others): {race}"),
                   err=True)
    for refusal in result.refused:
        click.echo(printable(f"git correx: {result.remote} refused {refusal}"), err=True)
    for conflict in result.conflicts:
        click.echo(printable(f"git correx: conflict: {conflict.describe()}"), err=True)
    if result.conflicts:
        click.echo(printable(
            "  hint: the session continued on two clones; nothing was merged or pushed. "
            "In the clone whose events should go: "
            f"`git update-ref {result.ref} {result.tracking}` (and, if it published "
            f"them already, `git push --force {result.remote} "
            f"{result.tracking}:{result.ref}-writers/<its correx.writer>`), then sync "
            "again"), err=True)
    return result.conclusion
