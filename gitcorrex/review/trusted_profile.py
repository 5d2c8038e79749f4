"""Which profile a pass must have run for `check BASE..HEAD --require-pass` to count it.

The branch under review can rewrite `.correx.toml` (its command becomes `true`), verify
and push: a pass under the profile the branch brought is the branch vouching for itself.
So the gate trusts the profile as it stands in BASE, the side a pull request cannot change
— as `pull_request_target` workflows trust the base — and counts only a pass whose
`profile` blob is BASE's (model/observed_pass.py). A branch that changes the profile needs
a pass run with BASE's profile (`git correx verify --profile-from BASE`), or the gate is
told, explicitly and visibly in its output, to trust another revision's profile
(`check ... --require-pass --profile-from HEAD`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.errors import UsageError
from gitcorrex.git import Repository, resolve_commit, tree_of
from gitcorrex.profiles.profile_file import PROFILE_NAME, tree_profiles


@dataclass(frozen=True)
class TrustedProfile:
    """`blob`: the trusted profile (None: the trusted revision has none, so no pass
    counts); `source` names that revision; `head`: the head tree's own profile;
    `base_rev`: BASE as given (for the hint); `chosen`: set when `--profile-from` chose
    the revision instead of BASE (the opt-out, said in the gate's output)."""

    blob: str | None
    source: str
    head: str | None
    base_rev: str
    chosen: str | None = None

    @property
    def changed(self) -> bool:
        """Whether the head's profile is not the trusted one."""
        return self.head != self.blob

    def as_dict(self) -> dict[str, object]:
        return {"trusted": self.blob, "from": self.source, "head": self.head,
                "profile_from": self.chosen}

    def describe(self) -> str:
        """Why a pass under the head's profile does not count, and what to run instead."""
        if self.blob is None:
            return (f"{self.source} has no {PROFILE_NAME}, so no pass can run its profile: "
                    f"commit a profile on the base first, or opt out with "
                    f"`--profile-from HEAD`")
        head = self.head[:12] if self.head else "none"
        return (f"the head changes {PROFILE_NAME} (blob {self.blob[:12]} at {self.source}, "
                f"{head} at the head) and a pass counts only under {self.source}'s profile: "
                f"run `git correx verify --profile-from {self.chosen or self.base_rev}` on "
                f"the head's "
                f"tree, or opt out with `--profile-from HEAD`")


def trusted_profile(repo: Repository, *, base: str, base_rev: str, head: str,
                    profile_from: str | None) -> TrustedProfile:
    """BASE's profile (commit `base`, given as `base_rev`), or `profile_from`'s when the
    gate was told to trust that revision (a usage error, exit 2, when it names no
    commit)."""
    rev, commit = base_rev, base
    if profile_from is not None:
        found = resolve_commit(repo, profile_from)
        if found is None:
            raise UsageError(f"--profile-from {profile_from!r} names no commit",
                             hint="give a branch, tag or commit id")
        rev, commit = profile_from, found
    trees = [tree_of(repo, commit), tree_of(repo, head)]
    blobs = tree_profiles(repo, trees)
    return TrustedProfile(blobs[trees[0]], f"{rev} ({commit[:12]})", blobs[trees[1]],
                          base_rev, profile_from)
