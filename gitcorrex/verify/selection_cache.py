"""Profile selections remembered by profile content, so the plain `verify` path needs no
pydantic to know what to run.

Validating `.correx.toml` takes the profile models, i.e. pydantic (~120 ms CPU to import and
build), on every `verify`. Yet what a verification runs is a pure function of the profile's
exact bytes (its blob id), the `--stage`/`--expect` asked for and this program's version.
So the model path, having validated and selected, stores the selection it ran (its commands
with their digests, and the output cap) in a small table next to the ledger
(`git/fold_store.py`: `<common dir>/correx/folds/profile-selections.json`); the plain path
looks it up and, on a miss, leaves the run to the model path, which validates and stores it.
A changed profile is a new blob id: a new entry, never a stale one.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from gitcorrex.git.fold_store import load_table, store_table
from gitcorrex.git.repository import Repository

TABLE = "profile-selections"
LIMIT = 64


class PlainCommand(NamedTuple):
    """`profiles.selection.ResolvedCommand` as plain values."""

    name: str
    argv: list[str]
    timeout_s: int
    requires: list[str]
    digest: str


class PlainSelection(NamedTuple):
    """`profiles.selection.Selection` as plain values, and the profile's output cap."""

    expectation: str
    stage: str | None
    writes: list[str]
    setup: PlainCommand | None
    commands: list[PlainCommand]
    output_cap: int


def cached_selection(repo: Repository, profile: str, stage: str | None,
                     expect: str | None) -> PlainSelection | None:
    """The selection stored for this profile blob and these options; None when absent."""
    entry = load_table(repo.common_dir, TABLE).get(_key(profile, stage, expect))
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


def _selection(entry: Any) -> PlainSelection | None:
    if not isinstance(entry, dict):
        return None
    setup = entry["setup"]
    return PlainSelection(
        expectation=str(entry["expectation"]), stage=entry["stage"],
        writes=[str(path) for path in entry["writes"]],
        setup=None if setup is None else _command(setup),
        commands=[_command(command) for command in entry["commands"]],
        output_cap=int(entry["output_cap"]))


def _command(entry: dict[str, Any]) -> PlainCommand:
    return PlainCommand(name=str(entry["name"]), argv=[str(arg) for arg in entry["argv"]],
                        timeout_s=int(entry["timeout_s"]),
                        requires=[str(path) for path in entry["requires"]],
                        digest=str(entry["digest"]))
