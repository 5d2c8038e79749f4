"""Command-line entry point: `git correx …` (console script `git-correx`)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """The only place that exits the process."""
    from gitcorrex.cli.fast import run_fast

    code = run_fast(sys.argv[1:] if argv is None else argv)
    if code is None:
        from gitcorrex.cli.root import run

        code = run(argv)
    sys.exit(code)
