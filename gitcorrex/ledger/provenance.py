"""Who and what records a fact: fixed for one process, stamped on every event it writes.

The runtime id (`model/runtime.py`) tells apart two processes of the same user on the same
host (two agents in two worktrees), which identity and host alone cannot.
"""

from __future__ import annotations

from gitcorrex import __version__
from gitcorrex.git import (
    Repository,
    git_version,
    ledger_identity,
    libgit2_version_cached,
    require_ledger_format,
)
from gitcorrex.model.provenance import Provenance
from gitcorrex.model.runtime import host_name, runtime_name
from gitcorrex.model.runtime import runtime_id as runtime_id  # callers import it here


def process_actor(repo: Repository) -> dict[str, str | None]:
    """This process's actor as every event stamps it: git's author identity (`git var`),
    host, runtime id and, only when `CORREX_RUNTIME` gives one, the runtime's name (the
    allow path compares it with a step's without the rest of the provenance)."""
    author = ledger_identity(repo).author
    actor: dict[str, str | None] = {"name": author.name, "email": author.email,
                                    "host": host_name(), "runtime": runtime_id()}
    named = runtime_name()
    if named is not None:  # absent, not null, when unnamed: older lines stay as they were
        actor["runtime_name"] = named
    return actor


def current_provenance(repo: Repository) -> Provenance:
    """This process's actor (git's author identity; host; runtime id; the runtime's name,
    only when `CORREX_RUNTIME` gives one) and tool versions.

    An identity git refuses is a ConfigError (exit 2) here, before a command runs anything.
    Runs `git var` and `git --version` (cached), so commands that must not start a process
    (replay) never call it.
    """
    require_ledger_format(repo)
    actor = process_actor(repo)
    tool = {"correx": __version__, "git": git_version(),
            "libgit2": libgit2_version_cached(repo.common_dir)}
    return Provenance(actor=actor, tool=tool)
