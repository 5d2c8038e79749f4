"""What a verification is asked to do, and what it takes from the process that asks.

`VerifyRequest` holds the user's choices; `VerifyContext` the commands' environment, the
clock (never read directly: replay and tests fix it), who records, and where live progress
goes: one value, so the entries that pass a verification down (`session/verify_entry.py`,
the settlement) hand it on whole instead of repeating four keywords at every door.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from gitcorrex.model.provenance import Provenance
from gitcorrex.verify.outcome import VerifyProgress
from gitcorrex.verify.selection import ProfileSelection


class VerifyRequest:
    """The user's choices; everything else comes from the profile.

    `step`, `selection` and `checks_only` are set only by a session's settlement
    (session/settlement.py): the step the observation binds, the commands it chose from the
    session's profile (the step's checks and its stage's expectation), which then win over
    `stage`/`expect`, and whether they are the step's own checks alone (a step without a
    build claim: recorded as `step_checks_observed`, never a pass of the tree).
    `profile_from` (`--profile-from REV`) runs REV's profile instead of the tree's.
    A plain class: `dataclasses` would load `inspect` on every verify's start-up.
    """

    __slots__ = ("checks_only", "expect", "isolated", "profile_from", "reuse", "selection",
                 "session", "stage", "step")

    def __init__(self, *, stage: str | None = None, expect: str | None = None,
                 session: str | None = None, reuse: bool = False, isolated: bool = False,
                 step: str | None = None, selection: ProfileSelection | None = None,
                 profile_from: str | None = None, checks_only: bool = False) -> None:
        self.stage, self.expect, self.session = stage, expect, session
        self.reuse, self.isolated = reuse, isolated
        self.step, self.selection, self.profile_from = step, selection, profile_from
        self.checks_only = checks_only

    def but(self, **changes: object) -> VerifyRequest:
        """A copy with `changes` (the settlement binds a session, a step, a selection)."""
        values = {name: getattr(self, name) for name in self.__slots__}
        return VerifyRequest(**{**values, **changes})


class VerifyContext:
    """`env`: what the commands inherit; `clock`: aware UTC now; `provenance`: the recorder."""

    __slots__ = ("clock", "env", "progress", "provenance")

    def __init__(self, env: Mapping[str, str], clock: Callable[[], datetime],
                 provenance: Provenance, progress: VerifyProgress) -> None:
        self.env, self.clock, self.provenance, self.progress = env, clock, provenance, progress
