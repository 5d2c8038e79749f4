"""What can be wrong with one `writes` pattern, as (severity, code, message, hint) tuples.

Pure text rules, no I/O. Manifests are matched against canonical repo-relative paths, and
pathspec does not normalise (`allowed/` matches `allowed/../x`), so a pattern with `..`,
`.`, an empty component or `.git` can never mean what it seems to; a backslash is an escape
in gitignore syntax, not a separator; a filesystem path (`/home/me/repo/src`, `C:/src`,
`~/src`) is read as a path inside the repository that almost surely does not exist.
"""

from __future__ import annotations

import re
from typing import Literal

from gitcorrex.model.profile_values import show

Severity = Literal["error", "warning"]
Rule = tuple[Severity, str, str, str]
_DRIVE = re.compile(r"^/?[A-Za-z]:")


def pattern_findings(pattern: str, *, root: str) -> list[Rule]:
    """Every problem of `pattern` (a stage `writes` entry); `root` is the work tree's path."""
    shown = show(pattern)
    if "\0" in pattern or "\\" in pattern:
        return [("error", "backslash", f"{shown} contains a backslash or NUL: gitignore "
                 "syntax reads a backslash as an escape, not a directory separator",
                 'separate directories with "/"')]
    body = pattern[1:] if pattern.startswith("!") else pattern
    if body.startswith("#") or body.strip() in ("", "/"):
        return [("error", "not_a_pattern", f"{shown} is not a write pattern",
                 'write a glob like "/src/**" ("/" anchors it at the repository root)')]
    found = _absolute(shown, body, root) + _components(shown, body)
    if body != body.strip():
        found.append(("warning", "whitespace", f"{shown} has leading or trailing spaces: a "
                      "leading space is part of the name, a trailing one is dropped",
                      "remove the spaces"))
    if not found and not body.startswith("/") and "/" not in body.rstrip("/"):
        found.append(("warning", "unanchored", f"{shown} is unanchored: it matches at any "
                      f"depth (also a/b/{body})",
                      f'anchor it at the repository root as "/{body}", or write '
                      f'"**/{body}" if any depth is meant'))
    return found


def _absolute(shown: str, body: str, root: str) -> list[Rule]:
    """A filesystem path written where a repository path belongs."""
    top = root.rstrip("/")
    if body == top or body.startswith(top + "/"):
        inside = body[len(top):].lstrip("/") or "**"
        return [("error", "absolute_path", f"{shown} is the work tree's absolute "
                 "filesystem path: patterns are relative to the repository root",
                 f'write it from the repository root, e.g. "/{inside}"')]
    if _DRIVE.match(body) or body.startswith("~"):
        return [("error", "absolute_path", f"{shown} is a filesystem path (drive or home "
                 "directory): patterns are relative to the repository root",
                 'write it from the repository root, e.g. "/src/**"')]
    return []


def _components(shown: str, body: str) -> list[Rule]:
    found: list[Rule] = []
    parts = body.removeprefix("/").removesuffix("/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        found.append(("error", "not_canonical", f'{shown} has an empty, "." or ".." '
                      "component: patterns match canonical repository paths, which never "
                      "contain them", 'name the path from the repository root directly, '
                      'e.g. "/docs/**"'))
    if any(part.lower() == ".git" for part in parts):
        found.append(("error", "git_component", f"{shown} names .git: git's own files are "
                      "never part of a commit", "remove the pattern"))
    return found
