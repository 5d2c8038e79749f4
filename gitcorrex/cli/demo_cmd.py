"""`git correx demo`: see the whole loop on a throwaway repository in a few seconds."""

from __future__ import annotations

import click

from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.printable import printable, printable_lines

NEXT = ("next: in your own repository, `git correx init`, commit .correx.toml, then "
        "`git correx verify` (README: Use it on your repositories)")


@click.command()
@click.option("--keep", is_flag=True, help="Keep the demo repository and print its path.")
def demo(keep: bool) -> Conclusion:
    """Create a small project, verify it failing then passing, then `show` and `replay`.

    The throwaway repository is removed at the end (and says so) unless --keep.
    """
    import shutil
    import tempfile
    from pathlib import Path

    from gitcorrex.demo.script import run_demo

    workdir = Path(tempfile.mkdtemp(prefix="correx-demo-"))
    try:
        code = run_demo(workdir, say=lambda text: click.echo(printable_lines(text)))
    finally:
        if keep:
            click.echo(printable(f"kept: {workdir / 'calc'}  (cd there and try "
                                 "`git correx show`)"))
        else:
            shutil.rmtree(workdir, ignore_errors=True)
            click.echo(printable(f"removed the demo repository {workdir / 'calc'} "
                                 "(`git correx demo --keep` keeps it to explore)"))
    click.echo(NEXT)
    return code
