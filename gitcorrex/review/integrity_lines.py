"""One Markdown line per test-integrity fact, for the report: every finding a reviewer must
see, and who accepted which, and why. Every recorded text is escaped."""

from __future__ import annotations

from gitcorrex.integrity.findings import WHAT
from gitcorrex.model.record import EventPayload
from gitcorrex.model.test_integrity import WeakeningFound, WeakeningsAccepted
from gitcorrex.review.markdown_text import markdown_text


def integrity_line(payload: EventPayload, by: str) -> str:
    """`✗ tests/test_a.py:3 test_b: assertions removed (…) against 1a2b3c4d5e6f` or
    `✓ accepted 2 weakening(s) against … by BY: REASON — test (rule), …`."""
    if isinstance(payload, WeakeningFound):
        where = f"{payload.path}:{payload.line}" if payload.line else payload.path
        return f"✗ {markdown_text(where)} **{markdown_text(payload.test)}**: " \
               f"{WHAT[payload.rule]} " \
               f"({markdown_text(payload.detail)}) against `{payload.baseline[:12]}`"
    if isinstance(payload, WeakeningsAccepted):
        named = ", ".join(f"{markdown_text(f.test)} ({f.rule.value})"
                          for f in payload.findings[:10])
        more = len(payload.findings) - 10
        return f"✓ accepted {len(payload.findings)} weakening(s) against " \
               f"`{payload.baseline[:12]}` by {markdown_text(by)}: " \
               f"{markdown_text(payload.reason)}" + \
               (f" — {named}" if named else "") + (f" (+{more} more)" if more > 0 else "")
    return ""
