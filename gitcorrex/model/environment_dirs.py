"""Which directories hold an environment (a virtualenv, installed packages, a tool's cache)
rather than the project: named from paths alone, so no file is read here.

An environment directory that git would add enters the state key: every verify then lands
on a key no commit holds, and the ledger anchors megabytes nobody wrote. `init` excludes
such directories, `verify` and `doctor` name them (docs/state-key.md#environment-directories).
A directory counts when its name is a known one (`node_modules`, a tool cache) or when it
holds a marker at its top: `pyvenv.cfg` (every virtualenv, `python -m venv` or `uv venv`)
or `CACHEDIR.TAG` (the cache-directory convention: Rust's `target/`, pytest, mypy …).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import NamedTuple

NAMED = {
    "node_modules": "installed node packages",
    "__pypackages__": "installed Python packages (PEP 582)",
    ".tox": "tox environments",
    ".nox": "nox sessions",
    ".mypy_cache": "mypy's cache",
    ".pytest_cache": "pytest's cache",
    ".ruff_cache": "ruff's cache",
}
MARKERS = {
    "pyvenv.cfg": "a virtualenv (pyvenv.cfg)",
    "CACHEDIR.TAG": "a cache directory (CACHEDIR.TAG)",
}


class EnvironmentDir(NamedTuple):
    """A directory (repository-relative, no trailing slash) and what it holds."""

    path: str
    what: str

    @property
    def exclude_line(self) -> str:
        """The `info/exclude` line that ignores exactly this directory."""
        return "/" + _escaped(self.path) + "/"

    @property
    def fix(self) -> str:
        """The one shell line that takes it out of every state key (any worktree)."""
        where = '"$(git rev-parse --git-path info/exclude)"'
        return f"echo {shlex.quote(self.exclude_line)} >> {where}"


def environment_dirs_in(paths: Iterable[str]) -> list[EnvironmentDir]:
    """The outermost environment directories the file `paths` lie in, sorted; [] for none."""
    found: dict[str, str] = {}
    for path in paths:
        parts = path.split("/")
        for depth, name in enumerate(parts[:-1]):
            if name in NAMED:
                found.setdefault("/".join(parts[:depth + 1]), NAMED[name])
                break
        else:
            if len(parts) > 1 and parts[-1] in MARKERS:
                found.setdefault("/".join(parts[:-1]), MARKERS[parts[-1]])
    outermost: list[EnvironmentDir] = []
    for path in sorted(found):
        if not any(path.startswith(kept.path + "/") for kept in outermost):
            outermost.append(EnvironmentDir(path, found[path]))
    return outermost


def _escaped(path: str) -> str:
    """A path as a literal gitignore pattern (after the anchoring `/`): glob characters
    escaped, a trailing space kept."""
    text = "".join("\\" + char if char in "\\*?[" else char for char in path)
    if text.endswith(" "):
        text = text[:-1] + "\\ "
    return text
