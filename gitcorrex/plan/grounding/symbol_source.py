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

from collections.abc import Mapping, Set
from typing import Any

from gitcorrex import ledger
from gitcorrex.errors import UnavailableError
from gitcorrex.git.repository import Repository
from gitcorrex.git.tree_objects import list_tree, read_blobs
from gitcorrex.model.grounding import GROUNDING_KIND
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
        candidates = [("tree", pointer.index)] if pointer and pointer.tree == tree else []
        for source, oid in [*candidates, *(("ledger", o) for o in self._ledger_indexes())]:
            stored = open_stored(self._repo, oid)
            if stored and stored.meta.tree == tree and stored.meta.extractors == self.versions:
                return stored, source
            self._problems += 1
        return None, "none"

    def _ledger_indexes(self) -> list[str]:
        """Indexes earlier groundings of this very tree recorded, newest first."""
        read = ledger.read_subject(self._repo, self._view.tree)
        events = sorted((e for e in read.events if e.kind == GROUNDING_KIND),
                        key=lambda e: (e.at, e.id), reverse=True)
        return [str(e.field("index")) for e in events if isinstance(e.field("index"), str)]

    def _open(self, stored: StoredIndex, source: str) -> SymbolIndex:
        """This tree's stored index, read shard by shard; anything unreadable in it means
        a full rebuild, from which the rest of this grounding then reads."""
        shards: dict[str, dict[str, Any]] = {}
        checked: dict[tuple[str, str], list[str]] = {}
        leaves: list[frozenset[str]] = []
        rebuilt: list[BuiltIndex] = []

        def rebuild() -> BuiltIndex:
            if not rebuilt:
                self._problems += 1
                rebuilt.append(self._built(self._parse({}, "none")))
            return rebuilt[0]

        def entry(kind: str, key: str) -> list[str]:
            if rebuilt:
                return _from_built(rebuilt[0], kind, key)
            if (kind, key) not in checked:
                shard = shard_of(kind, key)
                if shard not in shards:
                    decoded = read_shard(self._repo, stored, shard)
                    if decoded is None:
                        return _from_built(rebuild(), kind, key)
                    shards[shard] = decoded
                found = checked_entry(shards[shard].get(key, []))
                if found is None:
                    return _from_built(rebuild(), kind, key)
                checked[(kind, key)] = found
            return checked[(kind, key)]

        def load_leaves() -> Set[str]:
            if not rebuilt and not leaves:
                found = read_leaves(self._repo, stored)
                if found is None:
                    rebuild()
                else:
                    leaves.append(found)
            return rebuilt[0].leaves.keys() if rebuilt else leaves[0]

        blobs = stored.meta.blobs
        self.index_oid = stored.oid
        self.stats = IndexStats(blobs, 0, blobs, source, self._problems)
        return SymbolIndex(incomplete=stored.meta.incomplete,
                           load_paths=lambda name: entry(NAMES, name),
                           load_names=lambda leaf: entry(BY_LEAF, leaf),
                           load_leaves=load_leaves)

    def _build(self, pointer: Pointer | None) -> SymbolIndex:
        base, source = self._base(pointer)
        return self._built(self._parse(base, source)).index()

    def _parse(self, base: Mapping[Key, BlobSymbols], source: str) -> BuiltIndex:
        return build_index(self._view.entries, base, lambda oids: read_blobs(self._repo, oids),
                           cache_source=source, workers=self._workers)

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


def _from_built(built: BuiltIndex, kind: str, key: str) -> list[str]:
    return (built.definitions if kind == NAMES else built.leaves).get(key, [])
