"""A session runs the profile it was locked under, read from git's objects, never the work
tree's `.correx.toml`.

`plan lock` records the blob of the lock state's profile (`plan_locked.profile`); only a
re-plan (`plan lock --replaces`) records another. The settlement, its gates and `step
start` parse that blob, so editing the work tree's profile changes no command, stage policy
or build expectation a session runs. The edit is still a change the session must not run
past: `step start` and `verify` in the session stop (exit 1) while the profile the current
state holds, or one staged in the index, is not the locked blob. Nothing hides it: a
symbolic link enters the state as its target's path (another blob), the state computation
clears `assume-unchanged` and `skip-worktree` bits, and a change staged over HEAD's profile
shows in the index even when the work tree was put back.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitcorrex.errors import TransitionRefusedError
from gitcorrex.git import Repository, lookup_objects, read_blob
from gitcorrex.model.profile import Profile
from gitcorrex.model.session_state import SessionState
from gitcorrex.profiles.load import parse_profile
from gitcorrex.profiles.profile_file import PROFILE_NAME


@dataclass(frozen=True)
class BoundProfile:
    """The profile a session is locked under, and its blob id."""

    profile: Profile
    blob: str


def locked_blob(state: SessionState) -> str:
    """The blob of the locked profile; a session bound to none is refused (exit 1): its
    lock state held no profile, or it was locked before locks recorded one."""
    if state.profile is None:
        raise TransitionRefusedError(
            f"session {state.session} is bound to no profile: its lock recorded no "
            f"{PROFILE_NAME} blob", hint=f"re-plan it on a state that holds {PROFILE_NAME}: "
                                         f"{_replan(state)}")
    return state.profile


def bound_profile(repo: Repository, state: SessionState) -> BoundProfile:
    """The locked profile, parsed from its blob (refused as `locked_blob` says)."""
    blob = locked_blob(state)
    source = f"{PROFILE_NAME} locked for session {state.session} (blob {blob[:12]})"
    return BoundProfile(parse_profile(read_blob(repo, blob), source=source), blob)


def check_profile_unchanged(repo: Repository, state: SessionState, state_key: str) -> None:
    """Refuse (exit 1) when the state `state_key` or the index holds another profile than
    the locked one, naming each place, both blobs and the two ways on."""
    locked = locked_blob(state)
    changes = _changes(repo, state_key, locked)
    if not changes:
        return
    raise TransitionRefusedError(
        f"session {state.session} runs only the profile it was locked under ({PROFILE_NAME} "
        f"blob {locked[:12]}), and {PROFILE_NAME} changed: {'; '.join(changes)}; nothing was "
        "run or recorded",
        hint=f"restore the locked profile (`rm -f {PROFILE_NAME} && git cat-file blob {locked} "
             f"> {PROFILE_NAME} && git restore --staged {PROFILE_NAME}`), or adopt the new one "
             f"by a re-plan: {_replan(state)}")


def _changes(repo: Repository, state_key: str, locked: str) -> list[str]:
    """Where the profile is not the locked blob: the state (the work tree as git would
    record it), and the index when it stages a change over HEAD's profile."""
    found = lookup_objects(repo, [f"{state_key}:{PROFILE_NAME}", f":0:{PROFILE_NAME}",
                                  f"HEAD:{PROFILE_NAME}"])  # one git process for all three
    tree_entry, staged, head = found
    held = tree_entry.oid if tree_entry is not None and tree_entry.kind == "blob" else None
    changes: list[str] = []
    if held != locked:
        what = f"blob {held[:12]}{_link(repo)}" if held else f"no {PROFILE_NAME}"
        changes.append(f"the work tree (state {state_key[:12]}) holds {what}")
    if staged is not None and staged.oid != locked and (head is None or staged.oid != head.oid):
        changes.append(f"the index stages blob {staged.oid[:12]}")
    return changes


def _link(repo: Repository) -> str:
    path = repo.root / PROFILE_NAME
    return " (a symbolic link)" if path.is_symlink() else ""


def _replan(state: SessionState) -> str:
    return (f"`git correx plan lock PLAN --session {state.session} --replaces "
            f"{state.plan}` (a person's decision)")
