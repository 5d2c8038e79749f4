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
from typing import Any, NamedTuple

from gitcorrex.git import Repository, load_table, store_table
from gitcorrex.model.session_object import git_blob_oid

TABLE = "profile-selections"
LIMIT = 64
PROFILE_NAME = ".correx.toml"


class StoredCommand(NamedTuple):
    """`profiles.selection.ResolvedCommand` as stored."""

    name: str
    argv: list[str]
    timeout_s: int
    requires: list[str]
    digest: str


class StoredSelection(NamedTuple):
    """`profiles.selection.Selection` as stored, and the profile's output cap."""

    expectation: str
    stage: str | None
    writes: list[str]
    setup: StoredCommand | None
    commands: list[StoredCommand]
    output_cap: int


class ProfileSelection(NamedTuple):
    """What a verification runs (`selection`) and the profile blob it came from."""

    profile: str
    selection: StoredSelection


def selected_commands(repo: Repository, *, stage: str | None,
                      expect: str | None) -> ProfileSelection:
    """The expectation `--stage`/`--expect` select from the work tree's profile: stored for
    these exact bytes, else validated and selected now (ConfigError, exit 2, naming what is
    wrong) and stored for the next run."""
    try:
        raw = (repo.root / PROFILE_NAME).read_bytes()
    except OSError:
        raw = None  # loading it again below says what is wrong with it
    if raw is not None:
        found = cached_selection(repo, git_blob_oid(raw), stage, expect)
        if found is not None:
            return ProfileSelection(git_blob_oid(raw), found)
    from gitcorrex.profiles.load import load_profile
    from gitcorrex.profiles.selection import select_expectation

    loaded = load_profile(repo.root)
    chosen = select_expectation(loaded.profile, stage=stage, expect=expect)
    cap = loaded.profile.defaults.output_cap
    values = chosen.model_dump(mode="json")
    remember_selection(repo, loaded.blob_oid, stage, expect, values, cap)
    return profile_selection(loaded.blob_oid, values, cap)


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
        output_cap=int(entry["output_cap"]))


def _command(entry: dict[str, Any]) -> StoredCommand:
    return StoredCommand(name=str(entry["name"]), argv=[str(arg) for arg in entry["argv"]],
                        timeout_s=int(entry["timeout_s"]),
                        requires=[str(path) for path in entry["requires"]],
                        digest=str(entry["digest"]))
