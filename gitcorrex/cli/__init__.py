"""Command-line entry point: `git correx …` (console script `git-correx`)."""

from __future__ import annotations

import os
import sys
from contextlib import suppress


def main(argv: list[str] | None = None) -> None:
    """The only place that exits the process; everything runs inside the one boundary."""
    from gitcorrex.cli.boundary import run_guarded

    args = sys.argv[1:] if argv is None else argv
    code = run_guarded(lambda: _dispatch(args, argv))
    if args[:2] == ["assess", "--hook"] and code not in (0, 2):
        from gitcorrex.cli.agent_hook import fail_closed  # a signal before the runner began

        code = fail_closed(code)
    exit_now(code)


def _dispatch(args: list[str], argv: list[str] | None) -> int:
    """The click-free fast paths first, then click; verify's first scan started before."""
    from gitcorrex.cli import head_start
    from gitcorrex.cli.fast import run_fast

    head_start.start_for(args)
    try:
        code = run_fast(args)
        if code is None:
            from gitcorrex.cli.root import run

            code = run(argv)
    finally:
        head_start.discard()
    return code


def exit_now(code: int) -> None:
    """Flush our output and end the process without tearing the interpreter down.

    Freeing pydantic's and pygit2's module state at shutdown costs 50-70 ms, a sixth of a
    whole `git correx verify` on 50,000 files, and buys nothing: every file, temporary
    index and child process is closed by a `with` block before a command returns, and the
    package registers no `atexit` handler. Output still goes out: both streams are flushed
    here, and a reader that went away (`| head`) is not an error.
    """
    for stream in (sys.stdout, sys.stderr):
        with suppress(BrokenPipeError, ValueError):
            stream.flush()
    os._exit(code)
