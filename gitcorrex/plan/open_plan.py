"""What every plan command starts from: the loaded plan, the profile, and the stored plan blob.

The canonical plan blob is written on every command (idempotent) so the facts about the
plan can hang on it; the ledger anchors it when the first fact is recorded. In a SHA-256
repository the stored blob id differs from the plan identity (always the SHA-1 blob id of
the canonical JSON), so `subject` and `identity` are kept apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gitcorrex import git
from gitcorrex.git import Repository
from gitcorrex.plan.load import LoadedPlan, load_plan
from gitcorrex.profiles.load import LoadedProfile, load_profile


@dataclass(frozen=True)
class PlanContext:
    """A plan ready to be judged: the plan, the profile it is judged under, its note subject."""

    loaded: LoadedPlan
    profile: LoadedProfile
    subject: str

    @property
    def identity(self) -> str:
        return self.loaded.identity

    @property
    def plan_id(self) -> str:
        return self.loaded.plan.id


def open_plan(repo: Repository, path: Path) -> PlanContext:
    """Load and store the plan and load the work tree's profile (ConfigError, exit 2)."""
    loaded = load_plan(path)
    profile = load_profile(repo.root)
    return PlanContext(loaded, profile, git.write_blob(repo, loaded.canonical_bytes))
