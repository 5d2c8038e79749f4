"""Text from the ledger made inert for Markdown and HTML (PR comments, job summaries).

Anything recorded may be hostile: a file name like `x](http://evil)`, a commit subject
with `<img onerror=…>`, an output tail with a right-to-left override that reorders what a
reviewer reads. Two contexts, two escapes; both spell control, bidi and other invisible
format characters as visible `\\uXXXX` text so nothing is hidden or reordered.
"""

from __future__ import annotations

import string
import unicodedata

_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
_MARKDOWN = frozenset(string.punctuation) - _HTML.keys()
_INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def markdown_text(text: str, *, limit: int | None = None) -> str:
    """Inline Markdown (a list item, a table cell): every ASCII punctuation mark
    backslash-escaped, HTML-special characters as entities, no line breaks."""
    out = []
    for char in _bounded(text, limit):
        if char in _HTML:
            out.append(_HTML[char])
        elif char in _MARKDOWN:
            out.append("\\" + char)
        elif _is_invisible(char):
            out.append("\\" + _visible(char))
        else:
            out.append(char)
    return "".join(out)


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


def _is_invisible(char: str) -> bool:
    return unicodedata.category(char) in _INVISIBLE


def _visible(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def _bounded(text: str, limit: int | None) -> str:
    return text if limit is None or len(text) <= limit else text[:limit] + "…"
