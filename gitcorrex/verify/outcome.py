"""What `verify` hands back to its caller: the recorded event and what to tell the user."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from gitcorrex.model.conclusion import Conclusion
from gitcorrex.model.verdicts import Result

if TYPE_CHECKING:
    from gitcorrex.model.events import RecordedEvent


class VerifyProgress(Protocol):
    """Live feedback while commands run; the CLI prints it, tests may collect it."""

    def starting(self, index: int, total: int, name: str, argv: Sequence[str]) -> None: ...

    def output(self, chunk: bytes) -> None: ...


class SilentProgress:
    """Progress sink that shows nothing (`--quiet`, or callers with no terminal)."""

    def starting(self, index: int, total: int, name: str, argv: Sequence[str]) -> None:
        return None

    def output(self, chunk: bytes) -> None:
        return None


class VerifyOutcome(NamedTuple):
    """What was recorded (`recorded`, and `setup_recorded` for a setup command): the line
    as written, or the event when the caller holds one already (a session's settlement);
    None when the expectation has no commands (nothing is claimed). `event` reads a line
    into the event model only when someone asks (`--json`, the API, a settlement): the
    text forms of `verify` never load it.

    `warnings` are lines for stderr (an environment directory in the key: verify/observe.py).
    `streamed` is False when `failing_output` came from something that did not stream
    (a session's write evidence or gate): the CLI then prints it even while streaming.
    """

    expectation: str
    state_key: str
    recorded: RecordedEvent | str | None
    setup_recorded: RecordedEvent | str | None
    result: Result | None
    summary: str
    failing_output: bytes | None = None
    streamed: bool = True
    warnings: tuple[str, ...] = ()

    @property
    def event(self) -> RecordedEvent | None:
        """The observation recorded (None: nothing was)."""
        return _event(self.recorded)

    @property
    def setup_event(self) -> RecordedEvent | None:
        """The setup command's observation, when the expectation has one."""
        return _event(self.setup_recorded)

    @property
    def conclusion(self) -> Conclusion:
        """pass or nothing to verify → OK, fail → failed, unavailable → unavailable."""
        if self.result is Result.FAIL:
            return Conclusion.CHECK_FAILED
        if self.result is Result.UNAVAILABLE:
            return Conclusion.UNAVAILABLE
        return Conclusion.OK


def _event(recorded: RecordedEvent | str | None) -> RecordedEvent | None:
    if not isinstance(recorded, str):
        return recorded
    from gitcorrex.model.events import RecordedEvent  # the model loads only when asked

    return RecordedEvent.model_validate_json(recorded)
