"""The manifest in force, read from a trusted base tree, never from the change itself.

A change could otherwise widen its own scope by editing `.correx.toml`; reading the profile
from HEAD (locally) or the base commit (in CI) means such an edit only counts once it has
itself been accepted. A selected stage that the base cannot provide fails closed, and the
refusal names the profile it read (`.correx.toml at HEAD`, its blob) and, when the change
itself defines the stage, says so: adding it again would not help.
"""

from __future__ import annotations

from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository, lookup_objects, read_blob, read_blob_at
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
        raise _missing_stage(repo, chosen, source, sorted(profile.stages))
    return Manifest(tuple(policy.writes), f"stage {chosen!r}")


def _missing_stage(repo: Repository, chosen: str, source: str, known: list[str]) -> ConfigError:
    """The stage is not in the profile read; the hint depends on whether the change (the
    index being committed) defines it already."""
    message = (f"no stage {chosen!r} (stages: {', '.join(known) or 'none'}) in {source}, "
               "the profile this check reads")
    if chosen in _staged_stages(repo):
        return ConfigError(message + f"; the change adds [stages.{chosen}] itself, and a "
                           "change never widens its own manifest",
                           hint="commit the profile change first with no stage selected "
                                f"(`git -c {STAGE_CONFIG}= commit`), then select the stage")
    return ConfigError(message, hint=f"add [stages.{chosen}] with its `writes` to "
                                     f"{PROFILE_NAME} and commit it, or select another stage")


def _staged_stages(repo: Repository) -> set[str]:
    """The stages of the profile in the index being committed; none when it has no
    readable profile (the refusal then says only what the trusted one lacks)."""
    found = lookup_objects(repo, [f":{PROFILE_NAME}"])[0]
    if found is None or found.kind != "blob":
        return set()
    try:
        return set(parse_profile(read_blob(repo, found.oid), source=PROFILE_NAME).stages)
    except ConfigError:
        return set()
