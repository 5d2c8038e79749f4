"""Verify's first work-tree scan, started before click is even imported.

Every `git correx verify` keys the workspace before it runs anything, and that scan
(`git add -A` + `git write-tree` on 50,000 files: ~150 ms) needs nothing but the
repository. Starting it here lets git scan while Python imports click and the verify
modules (~200 ms), instead of after the first ~60 ms of them. When the arguments turn
out to be wrong, the scan is wasted and its private index deleted; nothing else happens.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gitcorrex.errors import CorrexError

TYPE_CHECKING = False  # no `typing` at run time on the start-up path

if TYPE_CHECKING:
    from gitcorrex.git.repository import Repository
    from gitcorrex.git.state import StateProbe

_started: list[tuple[Repository, StateProbe]] = []


def start_for(args: Sequence[str]) -> None:
    """Begin the scan when `args` is a verify invocation; errors wait for the command."""
    if not args or args[0] != "verify" or {"-h", "--help"} & set(args):
        return
    from gitcorrex.git.repository import discover_with_git
    from gitcorrex.git.state import StateProbe

    try:
        repo = discover_with_git(Path.cwd())
        _started.append((repo, StateProbe(repo).begin()))
    except CorrexError:
        return  # the command discovers again and reports it with the usual exit code


def take() -> tuple[Repository, StateProbe] | None:
    """The started scan (the caller now owns and closes the probe), or None."""
    return _started.pop() if _started else None


def discard() -> None:
    """Close a scan nobody took (usage error, help): its private index must not stay."""
    while _started:
        _started.pop()[1].close()
