"""Where plan files live: `$GIT_COMMON_DIR/correx/plans/`, never part of a state key.

A plan kept in the work tree is an untracked file like any other, so it enters the state
key: the verified state then differs from the committed tree, and `log` shows the step's
commit as unverified. The plan home is inside the git directory, shared by every worktree,
and never committed. A plan read from standard input (`-`) is kept there too, under a
name derived from its bytes, so later commands can name the same file.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from gitcorrex.errors import UnavailableError
from gitcorrex.git import Repository, local_state_path


def plan_home(repo: Repository) -> Path:
    """The directory for plan files (created on first use)."""
    home = local_state_path(repo, "plans")
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UnavailableError(f"cannot create {home}: {exc.strerror or exc}",
                               hint="check the permissions of the git directory") from None
    return home


def keep_plan_bytes(repo: Repository, raw: bytes) -> Path:
    """Store plan bytes read from stdin in the plan home; the same bytes, the same file.

    JSON (first non-blank character `{`) is kept as `stdin-<hash>.json`, else `.toml`, so
    the loader reads it in the format it was written in.
    """
    suffix = ".json" if raw.lstrip()[:1] == b"{" else ".toml"
    path = plan_home(repo) / f"stdin-{hashlib.sha256(raw).hexdigest()[:16]}{suffix}"
    if not path.exists():
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_bytes(raw)
        os.replace(temporary, path)
    return path
