"""Verify's first work-tree scan, started before click is even imported, and what `state`
began before anything was (git/state_start.py), carried to the command.

Every `git correx verify` keys the workspace before it runs anything, and that scan
(`git status` on the kept index, 50,000 files: ~60 ms) needs nothing but the repository.
`main` begins it before anything loads, as it does for `state` (git/state_start.py:
git's discovery, the kept index claimed, the scan on it), and the probe made here adopts
it, so git scans while Python loads the verify modules; who records (git's identity and
version) is asked on a thread beside it (`begin_provenance`). When the arguments turn
out to be wrong, the scan is wasted and its private index deleted; nothing else happens.
`main` owns the scan (a `with` block) and hands it to the verify command as click's
context object; nothing is kept at module level.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

from gitcorrex.errors import CorrexError

TYPE_CHECKING = False  # no `typing` at run time on the start-up path

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

    from gitcorrex.git import Repository, StateProbe, StateStart
    from gitcorrex.model.provenance import Provenance


class HeadStart:
    """A scan begun for a verify invocation, or what `state` began, or none; closed on exit
    unless taken."""

    def __init__(self, started: tuple[Repository, StateProbe] | None = None,
                 state_start: StateStart | None = None,
                 provenance: Callable[[], Provenance] | None = None) -> None:
        self._started = started
        self._state_start = state_start
        self._provenance = provenance

    @classmethod
    def for_args(cls, args: Sequence[str], state_start: StateStart | None = None) -> HeadStart:
        """Begin the scan when `args` is a verify invocation, adopting what `main` began for
        it (`state_start`: git's discovery, the kept index's claim, the scan); errors wait
        for the command (it discovers again and reports them with the usual exit code).
        For a state invocation, what `main` began is kept for the command."""
        if not args or args[0] != "verify" or {"-h", "--help"} & set(args):
            return cls(state_start=state_start)
        from gitcorrex.git import StateProbe, discover

        try:
            asked = state_start.discovery if state_start is not None else None
            repo = discover(Path.cwd(), asked=asked)
            return cls((repo, StateProbe(repo, state_start).begin()),
                       provenance=begin_provenance(repo))
        except CorrexError:
            return cls(state_start=state_start)  # closed with the rest on exit

    def take(self) -> tuple[Repository, StateProbe] | None:
        """The started scan (the caller now owns and closes the probe), or None."""
        started, self._started = self._started, None
        return started

    def take_provenance(self) -> Callable[[], Provenance] | None:
        """The waiter for who records, begun with the scan (the caller now waits for it)."""
        provenance, self._provenance = self._provenance, None
        return provenance

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
        provenance, self._provenance = self._provenance, None
        if provenance is not None:
            with suppress(Exception):  # its git processes must not outlive us
                provenance()

    def __enter__(self) -> HeadStart:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.discard()


def begin_provenance(repo: Repository) -> Callable[[], Provenance]:
    """Who records (`git var` twice, `git --version`: ~6 ms of git processes), asked on a
    thread as soon as the repository is known, while the verify modules load; its error
    (an identity git refuses, exit 2) is raised where it is waited for, before any command
    runs."""
    from gitcorrex.git import in_background

    def ask() -> Provenance:
        from gitcorrex.ledger.provenance import current_provenance

        return current_provenance(repo)

    return in_background(ask, name="correx-provenance")
