"""Kind-specific fields of an operator's adoption of changes made between two steps.

A step starts on the state the last settlement left (the lock, a verified step, an earlier
adoption) plus only changes inside its own declared writes, which then count as its writes.
Anything else changed between steps — an edit no step declared and no settlement judged —
stops `step start` until it is reverted or an operator adopts it: `session adopt --reason`
records this event, and the state it names becomes the point the next step's writes begin
at (`replay/session.py`).
"""

from __future__ import annotations

from pydantic import Field, StrictInt

from gitcorrex.model.events import Oid
from gitcorrex.model.record import EventPayload
from gitcorrex.model.session_claims import Bounded, Named

MAX_LISTED_PATHS = 200  # paths an adoption, or a step start's writes_before_start, lists


class ChangesAdoptedFields(EventPayload):
    """`changes_adopted` (on the envelope's state key): an operator adopts every change
    between `settled` (the state the last settlement left) and that state; `paths` are the
    first MAX_LISTED_PATHS of them, `paths_omitted` how many more."""

    KIND = "changes_adopted"

    reason: Named
    settled: Oid | None
    paths: list[Bounded]
    paths_omitted: StrictInt = Field(ge=0)
