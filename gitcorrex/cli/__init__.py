"""Command-line entry point: `git correx …` (console script `git-correx`)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """The process's entry: everything runs inside the one boundary, which also ends it."""
    from gitcorrex.cli.boundary import exit_now, run_guarded

    args = sys.argv[1:] if argv is None else argv
    code = run_guarded(lambda: _dispatch(args, argv))
    if args[:2] == ["assess", "--hook"] and code not in (0, 2):
        from gitcorrex.cli.agent_hook import fail_closed  # a signal before the runner began

        code = fail_closed(code)
    exit_now(code)


def _dispatch(args: list[str], argv: list[str] | None) -> int:
    """The commands answered before click loads first, then click; verify's first scan
    started before."""
    from gitcorrex.cli.head_start import HeadStart
    from gitcorrex.cli.startup import run_startup

    with HeadStart.for_args(args) as head_start:
        code = run_startup(args, head_start)
        if code is None:
            from gitcorrex.cli.root import run

            code = run(argv, head_start=head_start)
    return code
