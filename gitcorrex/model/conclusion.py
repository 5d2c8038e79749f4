"""What a command's result concludes: ok, check failed or unavailable.

Every result a command renders (a verify outcome, a lint report, a range gate, a hook's
check…) says which of these it is, decided from its own fields, as `conclusion`. The number
a process exits with is decided once, at the boundary: `gitcorrex/failure.py`'s
`EXIT_CODES` maps each conclusion to the documented exit code (0, 1, 3), as `failure_of`
maps each exception. Usage errors, bugs and signals are exceptions, never a conclusion.
Enums alone, so the click-free paths load it for free.
"""

from __future__ import annotations

from enum import Enum


class Conclusion(Enum):
    """A plain Enum, not an int: a conclusion cannot be mistaken for an exit code."""

    OK = "ok"  # passed, allowed, nothing to report, nothing to do
    CHECK_FAILED = "check failed"  # a fail, a BLOCK, a non-pass verdict, an invalid session
    UNAVAILABLE = "unavailable"  # the answer cannot be known now (timeout, missing tool...)

