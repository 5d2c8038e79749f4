"""What a verification takes from the process that asks for it, besides the request.

The commands' environment, the clock (never read directly: replay and tests fix it), who
records, and where live progress goes: one value, so the entries that pass a verification
down (`session/verify_entry.py`, the settlement) hand it on whole instead of repeating four
keywords at every door.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from gitcorrex.model.events import Provenance
from gitcorrex.verify.outcome import VerifyProgress


@dataclass(frozen=True)
class VerifyContext:
    """`env`: what the commands inherit; `clock`: aware UTC now; `provenance`: the recorder."""

    env: Mapping[str, str]
    clock: Callable[[], datetime]
    provenance: Provenance
    progress: VerifyProgress
