"""A verification runs the profile its state holds, or says on purpose that it does not.

A pass is bound to the profile blob it records (model/observed_pass.py), and readers count
it only when that blob is the verified tree's own `.correx.toml`. So before any command
runs, the profile about to run (read from the work tree) is held against the one in the
state key's tree. They differ when the profile changed between the read and the scan, when
the index hides it from git (`assume-unchanged`, `skip-worktree`), or when it is ignored
(the state holds none): a pass recorded then would claim commands the tree does not name,
so nothing runs and nothing is recorded. Git may store the file converted (end-of-line
conversion declared in `.gitattributes`): the two are then the same profile when their TOML
values are equal, and the observation records the blob the tree holds; a clean filter that
maps the file to other values (another command) is a mismatch like any other.

`verify --isolated` needs none of this (it reads the profile from the state tree), and
`--profile-from REV` runs another profile on purpose, recorded as such.
"""

from __future__ import annotations

from gitcorrex.errors import ConfigError, UnavailableError
from gitcorrex.git import Repository, read_blob
from gitcorrex.model.session_object import git_blob_oid
from gitcorrex.profiles.profile_file import (
    PROFILE_NAME,
    read_profile_bytes,
    same_profile_values,
    tree_profiles,
)
from gitcorrex.verify.selection import ProfileSelection

UNHIDE = f"git update-index --no-assume-unchanged --no-skip-worktree {PROFILE_NAME}"


def bind_to_state(repo: Repository, chosen: ProfileSelection, state_key: str) -> ProfileSelection:
    """`chosen` (the work tree's profile), naming the blob the state tree holds; a
    ConfigError (exit 2) when the state holds no profile, an UnavailableError (exit 3) when
    it holds another."""
    held = tree_profiles(repo, [state_key])[state_key]
    if held == chosen.profile:
        return chosen
    if held is None:
        raise ConfigError(f"the workspace state {state_key[:12]} holds no {PROFILE_NAME} (is "
                          "it ignored?): a pass is bound to the profile of the state it "
                          "verifies", hint=f"stop ignoring {PROFILE_NAME}, or track it: "
                                           f"`git add -f {PROFILE_NAME}`")
    raw = read_profile_bytes(repo.root)
    if git_blob_oid(raw) == chosen.profile and same_profile_values(raw, read_blob(repo, held)):
        return chosen._replace(profile=held)
    raise UnavailableError(
        f"the {PROFILE_NAME} about to run (blob {chosen.profile[:12]}) is not the one in the "
        f"workspace state {state_key[:12]} (blob {held[:12]}): it changed while the state "
        "was read, or the index hides it from git; nothing was run or recorded",
        hint=f"run `{UNHIDE}` if it is marked, then verify again")
