"""Render the command entries as one roff man page, `git-correx(1)`.

Hand-written roff rather than a generator dependency: the page uses five requests
(.TH .SH .SS .TP .PP) and the escaping man(7) asks for (backslash, leading dot or quote,
hyphens in option names). The page is ASCII: `man` under `LANG=C` renders for an ASCII
terminal, where groff warns on every other byte, so the few symbols the help text uses
become ASCII (`ASCII_FOR`) and anything else a groff `\\[uXXXX]` escape.
"""

from __future__ import annotations

from collections.abc import Sequence

from gitcorrex import __version__
from gitcorrex.cli.tree import Entry


def render(entries: Sequence[Entry], exit_codes: Sequence[tuple[str, str]],
           files: Sequence[tuple[str, str]], examples: Sequence[tuple[str, str]]) -> str:
    """The whole page; the first entry is the root group."""
    root = entries[0]
    out = [f'.TH GIT\\-CORREX 1 "" "git correx {__version__}" "Git Manual"',
           ".SH NAME", f"git\\-correx \\- {escape(root.summary)}",
           ".SH SYNOPSIS", ".nf", *(escape(e.usage) for e in entries), ".fi",
           ".SH DESCRIPTION", *_paragraphs(root.paragraphs[1:]),
           "Each command also takes \\fB\\-h\\fR; \\fBgit correx help\\fR \\fICOMMAND\\fR "
           "prints the same text as this page without man.",
           ".SH OPTIONS", *_items(root.options), ".SH COMMANDS"]
    for entry in entries[1:]:
        out += [f".SS {escape(entry.name)}", ".nf", escape(entry.usage), ".fi",
                *_paragraphs(entry.paragraphs), *_items(entry.options)]
    out += [".SH EXIT STATUS", *_items(exit_codes), ".SH FILES", *_items(files),
            ".SH EXAMPLES", *_items(examples), ".SH SEE ALSO",
            "\\fBgit\\fR(1), \\fBgit\\-notes\\fR(1); docs/ in the source distribution."]
    return "\n".join(out) + "\n"


ASCII_FOR = {"\u2713": "+", "\u2717": "x", "\u2260": "!=", "\u2264": "<=", "\u2265": ">=",
             "\u2192": "->", "\u2190": "<-", "\u00d7": "x", "\u2026": "...", "\u2014": "--",
             "\u2013": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}


def escape(text: str) -> str:
    """Text safe on a roff line: backslashes, hyphens, a leading dot or quote, and ASCII
    only (ASCII_FOR, else a groff escape)."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = "".join(char if char.isascii() else ASCII_FOR.get(char, f"\\[u{ord(char):04X}]")
                   for char in text)
    return "\\&" + text if text[:1] in (".", "'") else text


def _paragraphs(paragraphs: Sequence[str]) -> list[str]:
    out = []
    for paragraph in paragraphs:
        out += [".PP", escape(paragraph)]
    return out


def _items(items: Sequence[tuple[str, str]]) -> list[str]:
    out = []
    for name, text in items:
        out += [".TP", f"\\fB{escape(name)}\\fR", escape(text)]
    return out
