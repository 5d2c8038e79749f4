"""The hook scripts: templates shipped in the package, rendered with a pinned interpreter,
and read back from a hooks directory to tell ours (and which version) from a foreign hook.

The templates live in `gitcorrex/hooks/scripts/` (package data, so `pip install .` and
`pip install -e .` both find them next to this module); the top-level `hooks/` directory
holds identical copies for readers of the repository (a test keeps them identical).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

HOOK_VERSION = 1
MARKER = f"# git-correx hook v{HOOK_VERSION}"
COMMIT_HOOKS = ("pre-commit", "pre-merge-commit")
PUSH_HOOK = "pre-push"
ALL_HOOKS = (*COMMIT_HOOKS, PUSH_HOOK)
CHAINED_SUFFIX = ".correx-chained"
TEMPLATES = Path(__file__).resolve().parent / "scripts"

_MARKER_LINE = re.compile(r"^# git-correx hook v(\d+)$", re.MULTILINE)
_ASSIGNMENT = re.compile(r"^hook_(python|chained)=(.*)$", re.MULTILINE)


@dataclass(frozen=True)
class InstalledScript:
    """What an installed hook file says about itself; `version` None means not ours."""

    version: int | None
    python: str | None
    chained: str | None

    @property
    def is_ours(self) -> bool:
        return self.version is not None


def template_text(name: str) -> str:
    """The shipped template for hook `name`, LF line endings whatever the checkout did."""
    return (TEMPLATES / name).read_text(encoding="utf-8")


def render_script(name: str, *, python: str, chained: str | None) -> bytes:
    """The script to install: the template with the interpreter and the chained hook's file
    name filled in, shell-quoted. The interpreter path is kept as given (a venv's `python`
    is a symlink whose location selects the venv: resolving it would lose the venv)."""
    text = template_text(name)
    text = text.replace("@CHAINED@", shlex.quote(chained or ""), 1)  # ours: no placeholder
    text = text.replace("@PYTHON@", shlex.quote(python), 1)
    return text.encode("utf-8", "surrogateescape")


def read_script(data: bytes) -> InstalledScript:
    """Parse an installed hook; a file without our marker line is foreign (version None)."""
    text = data[:8192].decode("utf-8", "surrogateescape")
    marker = _MARKER_LINE.search(text)
    if marker is None:
        return InstalledScript(None, None, None)
    values = {key: _unquote(raw) for key, raw in _ASSIGNMENT.findall(text)}
    return InstalledScript(int(marker.group(1)), values.get("python") or None,
                           values.get("chained") or None)


def chained_name(name: str, taken: set[str]) -> str:
    """A fresh name for a foreign hook we chain: never one that exists already (an earlier
    backup is never overwritten), `pre-commit.correx-chained`, then `…-chained.2`, …"""
    candidate = f"{name}{CHAINED_SUFFIX}"
    number = 1
    while candidate in taken:
        number += 1
        candidate = f"{name}{CHAINED_SUFFIX}.{number}"
    return candidate


def _unquote(raw: str) -> str:
    try:
        parts = shlex.split(raw)
    except ValueError:
        return ""
    return parts[0] if parts else ""
