"""Which stage of the profile a command enforces: `--stage`, else `git config correx.stage`.

Gates, manifests and the range gate all ask it, so it lives below them (with the profile)
instead of in one of them.
"""

from __future__ import annotations

from gitcorrex.git import Repository, config_value

STAGE_CONFIG = "correx.stage"


def selected_stage(repo: Repository, stage: str | None) -> str | None:
    """`--stage`, else `git config correx.stage`, else None (no manifest in force)."""
    return stage or config_value(repo, STAGE_CONFIG) or None
