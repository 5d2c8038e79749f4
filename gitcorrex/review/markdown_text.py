"""Text from the ledger made inert for Markdown and HTML (PR comments, job summaries).

Anything recorded may be hostile: a file name like `x](http://evil)`, a commit subject
with `<img onerror=…>`, an output tail with a right-to-left override that reorders what a
reviewer reads. Control, bidi and other invisible characters (and bytes that were not
UTF-8) are first spelled the one way every output spells them (model/printable.py:
`\\u202e`, `\\x1b`), so a page shows a name exactly as `replay` or `log` print it; then
two contexts, two escapes.

Only what would change the rendering is escaped, so the report still reads as text in a
CI log: dates, e-mails, paths and words stay plain. Inline, that is `\\` (so the spelling
above renders as typed), backticks, brackets (links, images), `|` (tables), `*` `~` `$`
(emphasis, strike-through, math), `_` at a word boundary (inside a word it is not
emphasis), `@` opening a mention, `<` and `&` (HTML), and a leading list, heading or quote
marker.
"""

from __future__ import annotations

import re

from gitcorrex.model.printable import printable

_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ALWAYS = frozenset("\\`[]|*~$")
_LEADING = re.compile(r"[#>+=-]|\d+(?=[.)])")


def markdown_text(text: str, *, limit: int | None = None) -> str:
    """Inline Markdown (a list item, a table cell): no markup, no HTML, no line breaks."""
    visible = printable(_bounded(text, limit))
    out = []
    for index, char in enumerate(visible):
        if char in "&<":
            out.append(_HTML[char])
        elif char in _ALWAYS or _is_boundary_mark(visible, index):
            out.append("\\" + char)
        else:
            out.append(char)
    return _escape_leading(visible, "".join(out))


def html_text(text: str, *, keep_newlines: bool = False, limit: int | None = None) -> str:
    """Text inside raw HTML (`<summary>`, `<pre>`), where Markdown is not parsed."""
    visible = printable(_bounded(text, limit), keep="\n\t" if keep_newlines else "")
    return "".join(_HTML.get(char, char) for char in visible)


def _is_boundary_mark(text: str, index: int) -> bool:
    """`_` next to a non-word character (emphasis), `@` not after one (a mention)."""
    char = text[index]
    before = text[index - 1] if index else " "
    after = text[index + 1] if index + 1 < len(text) else " "
    if char == "_":
        return not (before.isalnum() and after.isalnum())
    return char == "@" and not before.isalnum()


def _escape_leading(raw: str, escaped: str) -> str:
    """A value that starts a line must not start a list, heading or block quote."""
    found = _LEADING.match(raw)
    if found is None:
        return escaped
    if found.group().isdigit():
        end = len(found.group())
        return escaped[:end] + "\\" + escaped[end:]
    return "\\" + escaped


def _bounded(text: str, limit: int | None) -> str:
    return text if limit is None or len(text) <= limit else text[:limit] + "…"
