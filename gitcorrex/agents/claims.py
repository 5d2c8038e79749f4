"""Does an agent's final message claim the work is done?

The Stop gate runs the full expectation when the agent's last message claims completion and
the cheap one (`stop_expectation`) otherwise; `git correx agents history` counts the claims
that ended on an unverified tree. Both ask this one function.

The rule is deliberately simple and leans towards "yes": the message claims completion when
it contains, as whole words in any case, one of `CLAIM_PATTERNS` — "done", "complete(d)",
"finished", "implemented", "fixed", "resolved", "all tests pass", "ready for review", "works
now", ✅ and a few more. Negations are not read ("not done yet" counts as a claim), because
a reader of negations is a reader an agent can talk past ("I wouldn't say it isn't done").
The costs are lopsided on purpose: a false "yes" costs one run of the full expectation; a
false "no" costs nothing either, because a Stop without a claim still runs the cheap
expectation, so an agent that never says "done" still cannot end its turn on a failing
cheap check.
"""

from __future__ import annotations

import re

CLAIM_PATTERNS = (
    r"done", r"finished", r"complete[ds]?", r"completion", r"implemented", r"fixed",
    r"resolved", r"addressed", r"(?:all )?tests? (?:now )?(?:pass|passes|passed|passing)",
    r"(?:all )?tests? (?:are|is) (?:now )?(?:passing|green)", r"green",
    r"ready (?:for review|to merge|to ship)", r"works(?: now)?", r"working now",
    r"should (?:now )?work", r"verified", r"successfully", r"all set", r"good to go",
    r"wrapped up", r"shipped", r"lgtm",
)
_CLAIM = re.compile(r"(?<!\w)(?:" + "|".join(CLAIM_PATTERNS) + r")(?!\w)",
                    re.IGNORECASE)
_MARKS = ("\u2705", "\u2714")  # ✅ ✔


def is_completion_claim(message: str) -> bool:
    """Whether `message` claims the work is done (see the module's rule); "" claims
    nothing."""
    return bool(_CLAIM.search(message)) or any(mark in message for mark in _MARKS)
