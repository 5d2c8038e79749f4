"""The state tree as an exact path list, with the lookups the checks need.

Paths come from the tree object itself, never from the file system: a path is present
only if the state key records it (a file, symlink or submodule), or is a directory of one.
Nothing inside a submodule is in the tree, so such a path is `unknown`, not absent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from gitcorrex.git import GITLINK_MODE, TreeEntry
from gitcorrex.model.repo_paths import path_problem

GLOB_CHARS = frozenset("*?[")


@dataclass(frozen=True)
class PathRef:
    """A plan's path as written, made repo-relative: one leading `/` (an anchor, as in the
    profile's `writes`) and a trailing `/` (a directory) are dropped; `problem` says why the
    rest is not a canonical path (then nothing else about it is meaningful)."""

    text: str
    path: str
    directory: bool
    problem: str | None

    @property
    def is_pattern(self) -> bool:
        return not GLOB_CHARS.isdisjoint(self.path)


def parse_path_ref(text: str) -> PathRef:
    stripped = text.strip()
    path = stripped[1:] if stripped.startswith("/") else stripped
    directory = path.endswith("/")
    path = path.rstrip("/") if directory else path
    problem = path_problem(path)
    if problem is None and "\\" in path:
        problem = "backslash in the path (use '/')"
    if problem is None and any(ord(char) < 0x20 for char in path):
        problem = "control character in the path"
    return PathRef(text, path, directory, problem)


class TreeView:
    """Exact paths of one tree; directory and basename lookups are built on first use."""

    def __init__(self, tree: str, entries: Sequence[TreeEntry]) -> None:
        self.tree = tree
        self.entries = entries
        self.by_path = {entry.path: entry for entry in entries}
        self.gitlinks = sorted(e.path for e in entries if e.mode == GITLINK_MODE)

    @cached_property
    def directories(self) -> frozenset[str]:
        found: set[str] = set()
        for path in self.by_path:
            cut = path.rfind("/")
            while cut > 0 and path[:cut] not in found:
                found.add(path[:cut])
                cut = path.rfind("/", 0, cut)
        return frozenset(found)

    @cached_property
    def by_basename(self) -> dict[str, list[str]]:
        """Basename → paths (files and directories), sorted."""
        found: dict[str, list[str]] = {}
        for path in sorted([*self.by_path, *self.directories]):
            found.setdefault(path.rsplit("/", 1)[-1], []).append(path)
        return found

    @cached_property
    def by_lower_basename(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for name, paths in self.by_basename.items():
            found.setdefault(name.lower(), []).extend(paths)
        return found

    @cached_property
    def children(self) -> dict[str, list[str]]:
        """Directory ("" for the top level) → the paths directly inside it, sorted."""
        found: dict[str, list[str]] = {}
        for path in sorted([*self.by_path, *self.directories]):
            found.setdefault(path.rpartition("/")[0], []).append(path)
        return found

    def exists(self, path: str, *, directory: bool = False) -> bool:
        """Whether the tree records `path` (as a directory only, when `directory`)."""
        if directory:
            return path in self.directories
        return path in self.by_path or path in self.directories

    def submodule_holding(self, path: str) -> str | None:
        """The gitlink `path` lies strictly inside, or None."""
        return next((link for link in self.gitlinks if path.startswith(link + "/")), None)

    def ending_with(self, path: str) -> list[str]:
        """Other paths whose trailing components are exactly `path` (`client.py` →
        `src/client.py`), sorted."""
        basename = path.rsplit("/", 1)[-1]
        return [p for p in self.by_basename.get(basename, []) if p.endswith("/" + path)]
