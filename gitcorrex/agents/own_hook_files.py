"""Correx's own hook files are never a manifest violation — and nothing else rides on that.

`hooks install --agent X --shared` (and the default for a host without a local file) writes
the host's project settings file, which a stage's `writes` rarely name: without this, every
later shell call is blocked telling the agent to delete its own hook configuration.

The exemption is exact, so an agent cannot smuggle its own edits into a settings file under
it (a permission rule, a hook of its own, a matcher narrowed so `Bash` is no longer judged,
a command swapped for one that always allows): a change to a host's shared hook file is
exempt only when its new bytes are *exactly* what installing the portable hooks makes of the
baseline's bytes (`settings_text` of the baseline's document, or of nothing when the
baseline lacks the file). Bytes, not parsed JSON: two parsers can read one text
differently (duplicate keys: the last wins in Python and JavaScript, an error in a strict
reader, which would turn the host's hooks off), and the bytes are what the host reads.
A deletion, a symlink or any mode but a regular file is never exempt.

The local file (`.claude/settings.local.json`) needs no exemption: install makes git ignore
it, so it never enters the state key; when it is not ignored it is judged like any file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING

from gitcorrex.agents.install import LAYOUTS, portable_command, settings_text
from gitcorrex.errors import ConfigError

if TYPE_CHECKING:
    from gitcorrex.git import PathChange, Repository

_REGULAR = "100644"


def shared_hook_files() -> dict[str, str]:
    """Path of each host's shared (committed) hook file → the agent it belongs to."""
    return {relative: agent for agent, (relative, _events) in LAYOUTS.items()}


def without_own_hook_files(repo: Repository,
                           changes: Iterable[PathChange]) -> list[PathChange]:
    """`changes` less those that are exactly correx's hook installs (module docstring)."""
    files = shared_hook_files()
    return [change for change in changes
            if change.path not in files or not _is_own_install(repo, change, files[change.path])]


def _is_own_install(repo: Repository, change: PathChange, agent: str) -> bool:
    if change.new_mode != _REGULAR or change.old_mode not in (_REGULAR, "000000"):
        return False
    from gitcorrex.git import read_blob

    before = {} if change.old_oid.strip("0") == "" else _document(read_blob(repo, change.old_oid))
    if before is None:
        return False
    try:
        expected = settings_text(before, agent, portable_command(agent)).encode("utf-8")
    except ConfigError:  # a baseline install would refuse: nothing of ours to compare
        return False
    return read_blob(repo, change.new_oid) == expected


def _document(data: bytes) -> dict[str, object] | None:
    """The baseline's settings as install would read them; None when install would refuse."""
    try:
        text = data.decode("utf-8")
        document = json.loads(text) if text.strip() else {}
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return document if isinstance(document, dict) else None
