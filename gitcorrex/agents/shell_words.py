"""Shell text as words: what the operator-call judge (shell_calls.py) reads.

`shlex` in POSIX mode with the shell's separators as their own tokens, a newline among them
(it ends a command), and no comments: bash starts one only at a word's start, shlex inside a
word too, so `x#;git …` would hide the command after `;`.
"""

from __future__ import annotations

import shlex

SEPARATORS = ";&|()<>`\n"


def folded(text: str) -> str:
    """Lower case, quotes and backslashes gone: `cor""rex` and `co\\rrex` read `correx`."""
    return text.lower().replace('"', "").replace("'", "").replace("\\", "")


def shell_words(text: str) -> list[str]:
    """Shell words and separators (`;`, `&&`, `|`, `(`, `` ` ``, newline...); no comments:
    `x#;git …` runs the command after `;` in bash, so `#` starts nothing here."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=SEPARATORS)
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    return list(lexer)
