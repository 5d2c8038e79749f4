"""Canonical repository paths. Matching a non-canonical path is meaningless (pathspec does
not normalise: `allowed/` matches `allowed/../x`), so such paths are violations in themselves.
"""

from __future__ import annotations

from gitcorrex.model.printable import printable


def path_problem(path: str) -> str | None:
    """Why `path` is not a canonical repo-relative path, or None when it is.

    Rejects absolute paths, empty, `.` and `..` components, and any `.git` component
    (case-insensitively: on case-insensitive file systems `.GIT` is the same directory).
    """
    if not path:
        return "empty path"
    if path.startswith("/"):
        return "absolute path"
    for part in path.split("/"):
        if part == "":
            return "empty path component"
        if part in (".", ".."):
            return f"'{part}' path component"
        if part.lower() == ".git":
            return "'.git' path component"
    return None


def printable_path(path: str) -> str:
    """A path safe to print on a terminal (model/printable.py: one escaping everywhere)."""
    return printable(path)
