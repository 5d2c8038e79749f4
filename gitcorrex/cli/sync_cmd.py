"""`git correx sync [REMOTE]`: share the ledger through a git remote."""

from __future__ import annotations

import click

from gitcorrex.cli.options import emit_json, json_option, start_dir


@click.command()
@click.argument("remote", default="origin")
@json_option
def sync(remote: str, as_json: bool) -> int:
    """Fetch REMOTE's ledger (default origin), merge it into yours, push the result.

    Fetches into refs/notes/remotes/REMOTE/correx with an explicit refspec, unites the notes
    line by line (anchors kept), pushes without force and starts again if another clone
    pushed first. Never changes remote.* config. Exit 0 in sync, 1 a session diverged
    between the clones (nothing written), 3 the remote kept moving or git failed.
    """
    from gitcorrex.git.repository import discover_in_process
    from gitcorrex.sync.usecase import sync_ledger

    result = sync_ledger(discover_in_process(start_dir()), remote=remote)
    if as_json:
        emit_json(result.as_dict())
    else:
        tip = (result.local_tip or "(empty)")[:12]
        click.echo(f"{result.outcome}: {result.ref} at {tip} ({result.remote}, "
                   f"{result.attempts} round(s))")
    for conflict in result.conflicts:
        click.echo(f"git correx: conflict: {conflict.describe()}", err=True)
    if result.conflicts:
        click.echo("  hint: the session continued on two clones; nothing was merged or pushed. "
                   "To keep the remote's history and drop your unpushed events: "
                   f"`git update-ref {result.ref} {result.tracking}`, then sync again",
                   err=True)
        return 1
    return 0
