"""What a verification runs: the profile's selection, remembered by the profile's content.

Validating `.correx.toml` takes the profile models, i.e. pydantic (~120 ms CPU to import and
build), on every `verify`. Yet what a verification runs is a pure function of the profile's
exact bytes (its blob id), the `--stage`/`--expect` asked for and this program's version.
So `selected_commands` validates and selects once per profile content and stores what it
selected (the commands with their digests, and the output cap) in a small table next to the
ledger (`git/fold_store.py`: `<common dir>/correx/folds/profile-selections.json`); the next
run with the same bytes reads it back. A changed profile is a new blob id: a new entry,
never a stale one; a profile that does not validate is never stored, so its error is said
every time.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from gitcorrex.errors import ConfigError
from gitcorrex.git import Repository, load_table, read_blob, store_table
from gitcorrex.model.session_object import git_blob_oid
from gitcorrex.profiles.profile_file import PROFILE_NAME, read_profile_bytes, tree_profiles

TABLE = "profile-selections"
LIMIT = 64


class StoredCommand(NamedTuple):
    """`profiles.selection.ResolvedCommand` as stored."""

    name: str
    argv: list[str]
    timeout_s: int
    requires: list[str]
    digest: str


class StoredEnvironment(NamedTuple):
    """`model.profile_environment.EnvironmentPolicy` as stored: what the fingerprint holds."""

    variables: list[str]
    salt: str | None
    versions: list[str]
    programs: list[str]
    lockfiles: list[str]
    packages: bool
    platform: bool


class StoredSelection(NamedTuple):
    """`profiles.selection.Selection` as stored, and the profile's output cap."""

    expectation: str
    stage: str | None
    writes: list[str]
    setup: StoredCommand | None
    commands: list[StoredCommand]
    output_cap: int
    environment: StoredEnvironment


class ProfileSelection(NamedTuple):
    """What a verification runs (`selection`) and the profile blob it came from;
    `profile_from` is the commit whose profile was asked for (`verify --profile-from`),
    None for the profile the verified tree holds."""

    profile: str
    selection: StoredSelection
    profile_from: str | None = None


def selected_commands(repo: Repository, *, stage: str | None,
                      expect: str | None) -> ProfileSelection:
    """The expectation `--stage`/`--expect` select from the work tree's profile: stored for
    these exact bytes, else validated and selected now (ConfigError, exit 2, naming what is
    wrong) and stored for the next run. The bytes are read once, by the one reader
    (`profiles/profile_file.py`: a regular file, never a link)."""
    raw = read_profile_bytes(repo.root)
    return _selected(repo, git_blob_oid(raw), lambda: raw, PROFILE_NAME, stage, expect)


def selected_commands_at(repo: Repository, tree: str, *, label: str, stage: str | None,
                         expect: str | None) -> ProfileSelection:
    """The same, from the profile `tree` holds (`verify --isolated`: the state tree;
    `--profile-from REV`: REV's): its blob id is the stored selection's key, so a stored
    selection costs no read of the blob. A tree without one is a ConfigError (exit 2)."""
    blob = tree_profiles(repo, [tree])[tree]
    if blob is None:
        raise ConfigError(f"{label} holds no {PROFILE_NAME}",
                          hint=f"commit a {PROFILE_NAME} there, or verify without this "
                               "option to run the work tree's")
    return selected_commands_of(repo, blob, label=label, stage=stage, expect=expect)


def selected_commands_of(repo: Repository, blob: str, *, label: str, stage: str | None,
                         expect: str | None) -> ProfileSelection:
    """The same, from the profile blob `blob` (a session's locked profile)."""
    return _selected(repo, blob, lambda: read_blob(repo, blob), f"{PROFILE_NAME} at {label}",
                     stage, expect)


def _selected(repo: Repository, blob: str, read: Callable[[], bytes], source: str,
              stage: str | None, expect: str | None) -> ProfileSelection:
    found = cached_selection(repo, blob, stage, expect)
    if found is not None:
        return ProfileSelection(blob, found)
    from gitcorrex.profiles.load import parse_profile
    from gitcorrex.profiles.selection import select_expectation

    profile = parse_profile(read(), source=source)
    chosen = select_expectation(profile, stage=stage, expect=expect)
    cap = profile.defaults.output_cap
    values = chosen.model_dump(mode="json")
    remember_selection(repo, blob, stage, expect, values, cap)
    return profile_selection(blob, values, cap)


def profile_selection(profile: str, selection: dict[str, Any],
                      output_cap: int) -> ProfileSelection:
    """A selection made elsewhere (`Selection.model_dump(mode="json")`: a session's step
    checks) in the form a verification runs, with the profile blob it came from."""
    return ProfileSelection(profile, _selection({**selection, "output_cap": output_cap}))


def cached_selection(repo: Repository, profile: str, stage: str | None,
                     expect: str | None) -> StoredSelection | None:
    """The selection stored for this profile blob and these options; None when absent."""
    entry = load_table(repo.common_dir, TABLE).get(_key(profile, stage, expect))
    if entry is None:
        return None
    try:
        return _selection(entry)
    except (TypeError, KeyError, ValueError):
        return None


def remember_selection(repo: Repository, profile: str, stage: str | None, expect: str | None,
                       selection: dict[str, Any], output_cap: int) -> None:
    """Store `selection` (`Selection.model_dump(mode="json")`) unless it is stored already."""
    table = load_table(repo.common_dir, TABLE)
    key = _key(profile, stage, expect)
    entry = {**selection, "output_cap": output_cap}
    if table.get(key) == entry:
        return
    table.pop(key, None)
    table[key] = entry
    store_table(repo.common_dir, TABLE, table, LIMIT)


def _key(profile: str, stage: str | None, expect: str | None) -> str:
    return json.dumps([profile, stage, expect])


def _selection(entry: Any) -> StoredSelection:
    """A stored entry read back; TypeError/KeyError/ValueError when it is not one."""
    if not isinstance(entry, dict):
        raise TypeError("not a stored selection")
    setup = entry["setup"]
    return StoredSelection(
        expectation=str(entry["expectation"]), stage=entry["stage"],
        writes=[str(path) for path in entry["writes"]],
        setup=None if setup is None else _command(setup),
        commands=[_command(command) for command in entry["commands"]],
        output_cap=int(entry["output_cap"]), environment=_environment(entry["environment"]))


def _environment(entry: dict[str, Any]) -> StoredEnvironment:
    salt = entry["salt"]
    return StoredEnvironment(
        variables=[str(name) for name in entry["variables"]],
        salt=None if salt is None else str(salt),
        versions=[str(name) for name in entry["versions"]],
        programs=[str(name) for name in entry["programs"]],
        lockfiles=[str(name) for name in entry["lockfiles"]],
        packages=bool(entry["packages"]), platform=bool(entry["platform"]))


def _command(entry: dict[str, Any]) -> StoredCommand:
    return StoredCommand(name=str(entry["name"]), argv=[str(arg) for arg in entry["argv"]],
                        timeout_s=int(entry["timeout_s"]),
                        requires=[str(path) for path in entry["requires"]],
                        digest=str(entry["digest"]))
