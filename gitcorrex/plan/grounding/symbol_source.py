"""The state tree's symbol index for one grounding: reuse it, or build it incrementally.

In order: this tree's stored index (local pointer, then the ledger); else build, taking
every blob the last index (another tree's) already holds and parsing the rest. A stored
index whose shard turns out unreadable mid-grounding is replaced by a full rebuild, so a
corrupt cache changes what is parsed, never what is found.

Also answers the question an unresolved symbol raises: which files we could not parse (a
language without a grammar, a syntax error, binary or oversized) still mention the name?
Their bytes are read once per grounding, only when a symbol is unresolved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Set
from functools import partial
from itertools import chain
from typing import Any

from gitcorrex import ledger
from gitcorrex.errors import UnavailableError
from gitcorrex.git import Repository, list_tree, read_blobs, read_blobs_at
from gitcorrex.model.grounding import GroundingFields
from gitcorrex.model.typed_facts import in_time_order, read_facts
from gitcorrex.plan.grounding.tree_view import TreeView
from gitcorrex.symbols.extract import BlobSymbols
from gitcorrex.symbols.index import (
    BuiltIndex,
    IndexStats,
    Key,
    SymbolIndex,
    blob_symbols,
    build_index,
    locate,
)
from gitcorrex.symbols.index_format import (
    BY_LEAF,
    NAMES,
    IndexMeta,
    checked_entry,
    shard_of,
)
from gitcorrex.symbols.languages import extractor_versions, is_unparsed_source
from gitcorrex.symbols.store import (
    Pointer,
    StoredIndex,
    open_stored,
    read_definitions,
    read_leaves,
    read_pointer,
    read_shard,
    save_index,
)


class SymbolSource:
    """Opens or builds the index on first use; remembers its oid and what it cost."""

    def __init__(self, repo: Repository, view: TreeView, *, workers: int | None = None
                 ) -> None:
        self._repo = repo
        self._view = view
        self._workers = workers
        self._index: SymbolIndex | None = None
        self._unparsed: dict[str, bytes] | None = None
        self._problems = 0
        self.index_oid: str | None = None
        self.stats: IndexStats | None = None
        self.versions: dict[str, str] = {}

    def index(self) -> SymbolIndex:
        if self._index is None:
            self.versions = extractor_versions()
            pointer = read_pointer(self._repo)
            self._problems = 1 if pointer is False else 0
            mine = pointer if isinstance(pointer, Pointer) else None
            stored, source = self._stored_for_tree(mine)
            self._index = (self._open(stored, source) if stored is not None
                           else self._build(mine))
        return self._index

    def _stored_for_tree(self, pointer: Pointer | None) -> tuple[StoredIndex | None, str]:
        tree = self._view.tree
        local = [("tree", pointer.index)] if pointer and pointer.tree == tree else []
        recorded = (("ledger", oid) for oid in self._ledger_indexes())  # read only if needed
        for source, oid in chain(local, recorded):
            stored = open_stored(self._repo, oid)
            if stored and stored.meta.tree == tree and stored.meta.extractors == self.versions:
                return stored, source
            self._problems += 1
        return None, "none"

    def _ledger_indexes(self) -> Iterator[str]:
        """Indexes earlier groundings of this very tree recorded, newest first (a grounding
        line whose fields do not fit `GroundingFields` offers none)."""
        read = ledger.read_subject(self._repo, self._view.tree)
        groundings = reversed(in_time_order(read_facts(read.entries, GroundingFields)))
        yield from (f.payload.index for f in groundings if f.payload.index is not None)

    def _open(self, stored: StoredIndex, source: str) -> SymbolIndex:
        """This tree's stored index, read shard by shard (see `StoredLookup`)."""
        lookup = StoredLookup(self._repo, stored, self._rebuild)
        blobs = stored.meta.blobs
        self.index_oid = stored.oid
        self.stats = IndexStats(blobs, 0, blobs, source, self._problems)
        return SymbolIndex(incomplete=stored.meta.incomplete,
                           load_paths=lambda name: lookup.entry(NAMES, name),
                           load_names=lambda leaf: lookup.entry(BY_LEAF, leaf),
                           load_leaves=lookup.leaves)

    def _rebuild(self) -> BuiltIndex:
        self._problems += 1
        return self._built(self._parse({}, "none"))

    def _build(self, pointer: Pointer | None) -> SymbolIndex:
        base, source = self._base(pointer)
        return self._built(self._parse(base, source)).index()

    def _parse(self, base: Mapping[Key, BlobSymbols], source: str) -> BuiltIndex:
        read = partial(read_blobs_at, str(self._repo.common_dir))
        return build_index(self._view.entries, base, read, cache_source=source,
                           workers=self._workers)

    def _built(self, built: BuiltIndex) -> BuiltIndex:
        """Store a freshly built index and make it the one this grounding reports."""
        meta = IndexMeta(self._view.tree, self.versions, tuple(built.incomplete),
                         built.stats.blobs)
        self.index_oid = save_index(self._repo, built.definitions, built.leaves, meta)
        stats = built.stats
        self.stats = IndexStats(stats.blobs, stats.parsed, stats.reused, stats.cache,
                                self._problems)
        return built

    def _base(self, pointer: Pointer | None) -> tuple[dict[Key, BlobSymbols], str]:
        """Per-blob symbols of the last index written (another tree's), or nothing."""
        stored = open_stored(self._repo, pointer.index) if pointer else None
        if stored is None or stored.meta.extractors != self.versions:
            self._problems += 1 if pointer else 0
            return {}, "none"
        definitions = read_definitions(self._repo, stored)
        try:
            entries = list_tree(self._repo, stored.meta.tree)
        except UnavailableError:  # its tree was pruned: a base we cannot use
            entries = None
        if definitions is None or entries is None:
            self._problems += 1
            return {}, "none"
        return blob_symbols(definitions, locate(entries), stored.meta.incomplete), "base"

    def mentions(self, name: str) -> list[str]:
        """Unparsed or partly parsed source files whose bytes contain `name`, sorted."""
        if self._unparsed is None:
            unparsed = {*self.index().incomplete, *(
                e.path for e in self._view.entries if e.is_file and is_unparsed_source(e.path))}
            oids = {path: self._view.by_path[path].oid for path in sorted(unparsed)}
            data = read_blobs(self._repo, oids.values())
            self._unparsed = {path: data[oid] for path, oid in oids.items()}
        needle = name.encode("utf-8", "surrogateescape")
        return [path for path, data in self._unparsed.items() if needle in data]


class StoredLookup:
    """Entries of a stored index, each shard read and each entry checked once. Anything
    unreadable means one full rebuild, from which every later lookup then reads: a corrupt
    cache costs a parse, never a finding."""

    def __init__(self, repo: Repository, stored: StoredIndex,
                 rebuild: Callable[[], BuiltIndex]) -> None:
        self._repo = repo
        self._stored = stored
        self._rebuild = rebuild
        self._rebuilt: BuiltIndex | None = None
        self._shards: dict[str, dict[str, Any]] = {}
        self._entries: dict[tuple[str, str], list[str]] = {}
        self._leaves: frozenset[str] | None = None

    def entry(self, kind: str, key: str) -> list[str]:
        """Paths of a name (`NAMES`) or names of a leaf (`BY_LEAF`); [] when none."""
        if self._rebuilt is None and (kind, key) not in self._entries:
            shard = shard_of(kind, key)
            if shard not in self._shards:
                decoded = read_shard(self._repo, self._stored, shard)
                if decoded is None:
                    return self._fallback(kind, key)
                self._shards[shard] = decoded
            found = checked_entry(self._shards[shard].get(key, []))
            if found is None:
                return self._fallback(kind, key)
            self._entries[(kind, key)] = found
        if self._rebuilt is not None:
            return self._fallback(kind, key)
        return self._entries[(kind, key)]

    def leaves(self) -> Set[str]:
        if self._rebuilt is None and self._leaves is None:
            self._leaves = read_leaves(self._repo, self._stored)
        if self._leaves is None:
            return self._rebuilt_index().leaves.keys()
        return self._leaves

    def _fallback(self, kind: str, key: str) -> list[str]:
        built = self._rebuilt_index()
        return (built.definitions if kind == NAMES else built.leaves).get(key, [])

    def _rebuilt_index(self) -> BuiltIndex:
        if self._rebuilt is None:
            self._rebuilt = self._rebuild()
        return self._rebuilt
