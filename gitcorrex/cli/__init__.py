"""Command-line entry point: `git correx …` (console script `git-correx`)."""

from __future__ import annotations

import sys

from gitcorrex.cli.root import run


def main(argv: list[str] | None = None) -> None:
    """The only place that exits the process."""
    sys.exit(run(argv))
