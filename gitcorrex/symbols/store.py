"""Where symbol indexes live: git objects, found through a local pointer or the ledger.

Each indexed tree's symbols are one flat tree of shard blobs (`index_format`), which the
grounding event anchors in the ledger: it survives `git gc` and travels with the notes
ref. The local file `<common git dir>/correx/symbol-index` holds `<tree> <index>` for the
index written last. Grounding the same tree again reads that index, a few shards at a
time; grounding another tree starts from it and parses only the blobs it lacks. In a
fresh clone the index an earlier grounding of the same tree recorded in the ledger is
used. Nothing here is evidence: an unreadable pointer, a missing object or a shard that
does not decode only means parsing again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gitcorrex.git import (
    Repository,
    flat_tree_entries,
    read_blob_if_present,
    read_local_state,
    write_flat_tree,
    write_local_state,
)
from gitcorrex.symbols.index_format import (
    LEAVES,
    META,
    NAMES,
    Definitions,
    IndexMeta,
    checked_entry,
    decode_leaves,
    decode_meta,
    decode_shard,
    encode_index,
)

POINTER = "symbol-index"
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class StoredIndex:
    """An index tree whose meta decoded: its oid, meta, and blob name → blob id."""

    oid: str
    meta: IndexMeta
    blobs: dict[str, str]


@dataclass(frozen=True)
class Pointer:
    tree: str
    index: str


def read_pointer(repo: Repository) -> Pointer | bool | None:
    """The local pointer; None when there is none, False when it is unreadable."""
    text = read_local_state(repo, POINTER)
    if text is None:
        return None
    fields = text.split()
    if len(fields) != 2 or not all(_is_oid(field) for field in fields):
        return False
    return Pointer(fields[0], fields[1])


def open_stored(repo: Repository, oid: str) -> StoredIndex | None:
    """The index tree `oid` with its meta; None when missing or its meta does not decode."""
    entries = flat_tree_entries(repo, oid) if _is_oid(oid) else None
    if entries is None or META not in entries:
        return None
    meta = decode_meta(read_blob_if_present(repo, entries.pop(META)))
    return None if meta is None else StoredIndex(oid, meta, entries)


def read_shard(repo: Repository, stored: StoredIndex, shard: str) -> dict[str, Any] | None:
    """One shard as parsed JSON ({} when the index has no such shard); None when it is
    unreadable. Its entries are checked when used (`checked_entry`)."""
    oid = stored.blobs.get(shard)
    if oid is None:
        return {}
    data = read_blob_if_present(repo, oid)
    return None if data is None else decode_shard(data)


def read_leaves(repo: Repository, stored: StoredIndex) -> frozenset[str] | None:
    """Every distinct lower-cased leaf of the index; None when unreadable."""
    oid = stored.blobs.get(LEAVES)
    return decode_leaves(read_blob_if_present(repo, oid) if oid else None)


def read_definitions(repo: Repository, stored: StoredIndex) -> Definitions | None:
    """Every name → paths of the index, checked; None when any shard is unreadable (never
    a partial map: a missing shard would look like blobs that define nothing)."""
    definitions: Definitions = {}
    for shard in sorted(name for name in stored.blobs if name.startswith(NAMES)):
        decoded = read_shard(repo, stored, shard)
        if decoded is None:
            return None
        for name, value in decoded.items():
            paths = checked_entry(value)
            if paths is None:
                return None
            definitions[name] = paths
    return definitions


def save_index(repo: Repository, definitions: Mapping[str, list[str]],
               leaves: Mapping[str, list[str]], meta: IndexMeta) -> str:
    """Write the tree's index, point the local file at it; returns the index tree id."""
    oid = write_flat_tree(repo, encode_index(definitions, leaves, meta))
    write_local_state(repo, POINTER, f"{meta.tree} {oid}\n")
    return oid


def _is_oid(text: str) -> bool:
    return len(text) in (40, 64) and _HEX.issuperset(text)
