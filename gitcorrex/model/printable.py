"""Text from outside (paths, subjects, messages, command names) made safe for a terminal.

One function for every human-readable output (every command's text — paths, plan text,
identities, git's words — hook and error messages, and the Markdown of `report`,
review/markdown_text.py), so a name cannot look different in two commands; `--json` is
ASCII, escaped by JSON itself (tests/cli/test_hostile_paths.py runs every command). Escaped: control
characters (C0, DEL, C1), bidi and other format characters (U+202E would display a path
reversed in a CI log), line and paragraph separators, and bytes that were not UTF-8 (kept as
surrogate escapes by `decode_path`), which print as `\\xNN` — the byte itself.
"""

from __future__ import annotations

_SURROGATE_BYTES = range(0xDC80, 0xDD00)


def printable(text: str, *, keep: str = "") -> str:
    """`text` with every character a terminal would act on, hide or reorder escaped; the
    characters in `keep` (the line breaks and tabs of a multi-line output) stay."""
    if text.isprintable():
        return text
    return "".join(char if char in keep else _escaped(char) for char in text)


def _escaped(char: str) -> str:
    if char.isprintable():
        return char
    code = ord(char)
    if code in _SURROGATE_BYTES:
        return f"\\x{code - 0xDC00:02x}"
    return char.encode("unicode_escape").decode("ascii")


def printable_lines(text: str) -> str:
    """Like `printable`, keeping the line breaks of a multi-line message."""
    return printable(text, keep="\n")
