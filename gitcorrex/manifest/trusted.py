"""The manifest in force, read from a trusted base tree, never from the change itself.

A change could otherwise widen its own scope by editing `.correx.toml`; reading the profile
from HEAD (locally) or the base commit (in CI) means such an edit only counts once it has
itself been accepted. A selected stage that the base cannot provide fails closed.
"""

from __future__ import annotations

from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository, read_blob_at
from gitcorrex.model.write_manifest import UNRESTRICTED, Manifest
from gitcorrex.profiles.load import PROFILE_NAME, parse_profile
from gitcorrex.profiles.stage import STAGE_CONFIG, selected_stage


def manifest_at(repo: Repository, *, base_tree: str | None, base_label: str,
                stage: str | None) -> Manifest:
    """The selected stage's `writes` as declared in `base_tree`'s profile.

    No stage selected → unrestricted. A stage selected but no profile at the base (or no
    such stage there) → ConfigError (exit 2): enforcement never silently switches off.
    """
    chosen = selected_stage(repo, stage)
    if chosen is None:
        return UNRESTRICTED
    raw = read_blob_at(repo, base_tree, PROFILE_NAME) if base_tree else None
    source = f"{PROFILE_NAME} at {base_label}"
    if raw is None:
        raise ConfigError(f"stage {chosen!r} is selected but {base_label} has no {PROFILE_NAME}",
                          hint="commit a profile first, or unset the stage "
                               f"(`git config --unset {STAGE_CONFIG}`)")
    profile = parse_profile(raw, source=source)
    policy = profile.stages.get(chosen)
    if policy is None:
        known = ", ".join(sorted(profile.stages)) or "none"
        raise ConfigError(f"{source}: no stage {chosen!r} (stages: {known})",
                          hint=f"add [stages.{chosen}] with its `writes`, or select another")
    return Manifest(tuple(policy.writes), f"stage {chosen!r}")
