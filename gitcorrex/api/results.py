"""The API's result models, each exactly a command's `--json` document: `state`, `verify`
and `show` build their JSON from these, so the CLI and the API cannot drift apart. Other
methods return the use cases' own models (AssessOutcome, SessionReport), as their commands
print them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.record import Record

if TYPE_CHECKING:
    from gitcorrex.git import WorkspaceState
    from gitcorrex.review.show import ShowResult as ShownTree
    from gitcorrex.verify.outcome import VerifyOutcome


class StateResult(Record):
    """`git correx state --json`: the state key, HEAD's tree, and whether they differ."""

    state_key: str
    head_tree: str | None
    dirty: bool

    @classmethod
    def of(cls, state: WorkspaceState) -> StateResult:
        return cls(state_key=state.state_key, head_tree=state.head_tree, dirty=state.dirty)


class VerifyResult(Record):
    """`git correx verify --json`: the verdict (None: nothing to verify) and the observation
    recorded; the command's exit code follows from `result` (VerifyOutcome.conclusion)."""

    result: str | None
    expectation: str
    state_key: str
    summary: str
    event: RecordedEvent | None
    setup_event: RecordedEvent | None

    @classmethod
    def of(cls, outcome: VerifyOutcome) -> VerifyResult:
        return cls(result=outcome.result.value if outcome.result else None,
                   expectation=outcome.expectation, state_key=outcome.state_key,
                   summary=outcome.summary, event=outcome.event,
                   setup_event=outcome.setup_event)


class ShowResult(Record):
    """`git correx show --json`: every event on the tree, newest first; no events means
    unverified (never passed). `problems`: ledger lines that could not be read."""

    tree: str
    source: str
    events: list[RecordedEvent]
    problems: list[dict[str, Any]]

    @classmethod
    def of(cls, shown: ShownTree) -> ShowResult:
        return cls(tree=shown.tree, source=shown.source, events=list(shown.events),
                   problems=[problem.as_dict() for problem in shown.problems])
