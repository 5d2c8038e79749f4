"""Workspace-relative file references in an artifact: a pure, deterministic extractor.

Only what is unmistakably a file path counts, so a flagged miss is high-confidence: a token
with a `/` whose last component has a dotted extension containing a letter
(`src/app.py`, `docs/a.b/guide.md`). Skipped: module and dotted names (`os.path`,
`pkg.mod.Class`), bare names (`app.py`: a depth-limited reader cannot place them), URLs and
other `scheme:` forms, absolute paths (`/x.py`, `~/x.py`, `C:/x.py`), paths with a `..`
component, backslash (Windows) paths, globs, and version-like names (`v1/2.0`). Tokens are
cut at whitespace, quotes, backticks and brackets (so code spans and Markdown links work);
`./` is dropped from the front, and trailing punctuation, `:line[:col]` and `#L12` from the
end.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_SEPARATORS = re.compile(r"[\s`'\"()\[\]<>{},;|]+")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_LOCATION = re.compile(r"(?::\d+(?::\d+)?|#L\d+(?:-L?\d+)?)$")
_EXTENSION = re.compile(r"^\.?[^.]+(?:\.[^.]+)*\.([A-Za-z0-9_+-]{1,12})$")
_GLOB = frozenset("*?")
_TRAILING = ".,;:!?"
MAX_PATH = 1024


@dataclass(frozen=True)
class Reference:
    """A repo-relative path and where it was written (`requirements[2]`, `files.main`)."""

    path: str
    where: str


def extract_references(document: Any) -> list[Reference]:
    """Every file reference in the string values of a parsed JSON document, first
    occurrence first, each path once."""
    found: dict[str, Reference] = {}
    for where, text in iter_strings(document, ""):
        for path in references_in(text):
            found.setdefault(path, Reference(path, where or "(top level)"))
    return list(found.values())


def references_in(text: str) -> list[str]:
    """The file references of one string, in order (repeats kept)."""
    return [path for token in _SEPARATORS.split(text) if (path := as_reference(token))]


def as_reference(token: str) -> str | None:
    """The token as a repo-relative file path, or None when it is not unmistakably one."""
    token = token.rstrip(_TRAILING)
    token = _LOCATION.sub("", token).rstrip(_TRAILING)
    while token.startswith("./"):
        token = token[2:]
    if len(token) > MAX_PATH or "/" not in token or "\\" in token:
        return None
    if _SCHEME.match(token) or not _GLOB.isdisjoint(token):
        return None
    if token.startswith(("/", "~", "www.")) or token.endswith("/"):
        return None
    parts = token.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return None
    match = _EXTENSION.match(parts[-1])
    if match is None or not any(char.isalpha() for char in match.group(1)):
        return None
    return token


def iter_strings(value: Any, where: str) -> Iterator[tuple[str, str]]:
    """(JSON path, string) for every string value, depth first in document order."""
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from iter_strings(item, f"{where}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from iter_strings(item, f"{where}.{key}" if where else str(key))
