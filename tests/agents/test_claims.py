"""The completion-claim detector the Stop gate and `agents history` share: simple, leaning
to "yes" (a false yes costs one full run; a false no still gets the cheap check)."""

from __future__ import annotations

import pytest

from gitcorrex.agents.claims import is_completion_claim


@pytest.mark.parametrize("message", [
    "Done.", "All done!", "The refactor is complete.", "I've completed the migration.",
    "Implemented the parser and wired it in.", "Fixed the off-by-one in total().",
    "All tests pass.", "Tests are passing now", "tests now pass", "The build is green.",
    "Resolved the merge conflict.", "Ready for review.", "It works now.",
    "This should now work.", "Finished.", "The fix is verified.", "✅ migration",
    "DONE", "not done yet",  # negations are not read: a reader of negations is gameable
])
def test_claims(message: str) -> None:
    assert is_completion_claim(message)


@pytest.mark.parametrize("message", [
    "", "I read the parser; which of the two designs do you prefer?",
    "Pausing here to ask about the schema.", "Let me look at the failing test next.",
    "abandoned", "undone-ness aside", "donee",
])
def test_no_claim(message: str) -> None:
    assert not is_completion_claim(message)
