"""`verify --reuse`: an earlier pass counts only for the same tree and the same commands."""

from __future__ import annotations

from collections.abc import Iterable

from gitcorrex.model.events import RecordedEvent
from gitcorrex.model.verification import VerificationFields
from gitcorrex.profiles.selection import ResolvedCommand


def find_reusable_pass(events: Iterable[RecordedEvent], *, state_key: str,
                       commands: list[ResolvedCommand]) -> RecordedEvent | None:
    """The newest pass on `state_key` whose command digests equal ours, in order; or None."""
    wanted = [command.digest for command in commands]
    candidates = [
        event for event in events
        if event.kind == VerificationFields.KIND and event.state_key == state_key
        and event.field("result") == "pass" and _digests(event) == wanted
    ]
    return max(candidates, key=lambda event: (event.at, event.id), default=None)


def original_of(event: RecordedEvent) -> str:
    """Cite the observation that actually ran, not another reuse of it."""
    cited = event.field("reused_from")
    return cited if isinstance(cited, str) else event.id


def _digests(event: RecordedEvent) -> list[str]:
    commands = event.field("commands")
    if not isinstance(commands, list):
        return []
    return [entry.get("digest", "") for entry in commands if isinstance(entry, dict)]
