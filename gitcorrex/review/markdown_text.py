"""Text from the ledger made inert for Markdown and HTML (PR comments, job summaries).

Anything recorded may be hostile: a file name like `x](http://evil)`, a commit subject
with `<img onerror=…>`, an output tail with a right-to-left override that reorders what a
reviewer reads. Two contexts, two escapes; both spell control, bidi and other invisible
format characters as visible `\\uXXXX` text so nothing is hidden or reordered.

Only what would change the rendering is escaped, so the report still reads as text in a
CI log: dates, e-mails, paths and words stay plain. Inline, that is `\\`, backticks,
brackets (links, images), `|` (tables), `*` `~` `$` (emphasis, strike-through, math), `_`
at a word boundary (inside a word it is not emphasis), `@` opening a mention, `<` and `&`
(HTML), and a leading list, heading or quote marker.
"""

from __future__ import annotations

import re
import unicodedata

_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ALWAYS = frozenset("\\`[]|*~$")
_LEADING = re.compile(r"[#>+=-]|\d+(?=[.)])")
_INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def markdown_text(text: str, *, limit: int | None = None) -> str:
    """Inline Markdown (a list item, a table cell): no markup, no HTML, no line breaks."""
    text = _bounded(text, limit)
    out = []
    for index, char in enumerate(text):
        if char in "&<":
            out.append(_HTML[char])
        elif char in _ALWAYS or _is_boundary_mark(text, index):
            out.append("\\" + char)
        elif _is_invisible(char):
            out.append("\\" + _visible(char))
        else:
            out.append(char)
    return _escape_leading(text, "".join(out))


def html_text(text: str, *, keep_newlines: bool = False, limit: int | None = None) -> str:
    """Text inside raw HTML (`<summary>`, `<pre>`), where Markdown is not parsed."""
    out = []
    for char in _bounded(text, limit):
        if char in _HTML:
            out.append(_HTML[char])
        elif keep_newlines and char in "\n\t":
            out.append(char)
        elif _is_invisible(char):
            out.append(_visible(char))
        else:
            out.append(char)
    return "".join(out)


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


def _is_invisible(char: str) -> bool:
    return unicodedata.category(char) in _INVISIBLE


def _visible(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def _bounded(text: str, limit: int | None) -> str:
    return text if limit is None or len(text) <= limit else text[:limit] + "…"
