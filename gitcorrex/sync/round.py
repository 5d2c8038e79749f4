"""The state one `sync` carries across its rounds, and its one way to push."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gitcorrex.errors import UnavailableError
from gitcorrex.git import RefStatus, RefUpdate, Repository, push_refs, writers_namespace
from gitcorrex.sync.result import SyncResult
from gitcorrex.sync.unite import United


@dataclass
class Round:
    """Where this sync stands: counters for the result, and the refs it may touch."""

    repo: Repository
    remote: str
    ref: str
    tracking: str
    writer: str
    rounds: int = 0
    refs_fetched: int = 0
    gained: int = 0
    merged: bool = False
    shared_after: str | None = None
    pushed: list[str] = field(default_factory=list)
    lost_races: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    transport_errors: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)

    @property
    def writer_ref(self) -> str:
        return writers_namespace(self.ref) + self.writer

    def tracking_of(self, ref: str) -> str:
        """The local tracking ref of a remote ledger ref (shared or a writer's)."""
        if ref == self.ref:
            return self.tracking
        return writers_namespace(self.tracking) + ref.removeprefix(writers_namespace(self.ref))

    def push(self, updates: Sequence[RefUpdate], *, strict: Sequence[str] = ()
             ) -> dict[str, RefStatus]:
        """Push; record what was accepted and every lost race. A rejection that is no lost
        race is fatal for the refs in `strict` (exit 3, git's words), else recorded as refused."""
        tracking = {update.ref: self.tracking_of(update.ref) for update in updates}
        statuses = push_refs(self.repo, self.remote, updates, tracking)
        for update in updates:
            status = statuses[update.ref]
            if status.is_accepted:
                self.pushed.append(update.ref)
            elif status.is_lost_race:
                self.lost_races.append(status.describe())
            elif update.ref not in strict:
                self.refused.append(status.describe())
            else:
                raise UnavailableError(
                    f"{self.remote} refused {status.describe()}",
                    hint="check the remote's permissions and hooks for refs/notes/*",
                )
        return statuses

    def result(self, outcome: str, united: United, remote_tip: str | None) -> SyncResult:
        return SyncResult(self.remote, self.ref, self.tracking, self.writer, outcome,
                          united.tip, remote_tip, self.rounds, self.refs_fetched,
                          list(self.pushed), self.gained, list(self.lost_races),
                          list(self.refused), list(self.transport_errors), list(self.retired),
                          list(united.conflicts))
