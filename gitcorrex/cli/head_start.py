"""Verify's first work-tree scan, started before click is even imported, and what `state`
began before anything was (git/state_start.py), carried to the command.

Every `git correx verify` keys the workspace before it runs anything, and that scan
(`git add -A` + `git write-tree` on 50,000 files: ~150 ms) needs nothing but the
repository. Starting it here lets git scan while Python imports click and the verify
modules (~200 ms), instead of after the first ~60 ms of them. When the arguments turn
out to be wrong, the scan is wasted and its private index deleted; nothing else happens.
`main` owns the scan (a `with` block) and hands it to the verify command as click's
context object; nothing is kept at module level.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gitcorrex.errors import CorrexError

TYPE_CHECKING = False  # no `typing` at run time on the start-up path

if TYPE_CHECKING:
    from types import TracebackType

    from gitcorrex.git import Repository, StateProbe, StateStart


class HeadStart:
    """A scan begun for a verify invocation, or what `state` began, or none; closed on exit
    unless taken."""

    def __init__(self, started: tuple[Repository, StateProbe] | None = None,
                 state_start: StateStart | None = None) -> None:
        self._started = started
        self._state_start = state_start

    @classmethod
    def for_args(cls, args: Sequence[str], state_start: StateStart | None = None) -> HeadStart:
        """Begin the scan when `args` is a verify invocation; errors wait for the command
        (it discovers again and reports them with the usual exit code). `state_start`:
        what `main` began for a state invocation, kept for the command."""
        if state_start is not None:
            return cls(state_start=state_start)
        if not args or args[0] != "verify" or {"-h", "--help"} & set(args):
            return cls()
        from gitcorrex.git import StateProbe, discover

        try:
            repo = discover(Path.cwd())
            return cls((repo, StateProbe(repo).begin()))
        except CorrexError:
            return cls()

    def take(self) -> tuple[Repository, StateProbe] | None:
        """The started scan (the caller now owns and closes the probe), or None."""
        started, self._started = self._started, None
        return started

    def take_state_start(self) -> StateStart | None:
        """What `state` began (the caller now owns and closes it), or None."""
        state_start, self._state_start = self._state_start, None
        return state_start

    def discard(self) -> None:
        """Close a scan nobody took (usage error, help): its private index must not stay."""
        started, self._started = self._started, None
        if started is not None:
            started[1].close()
        state_start, self._state_start = self._state_start, None
        if state_start is not None:
            state_start.close()

    def __enter__(self) -> HeadStart:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.discard()
