"""A tree's symbol index: every definition by name, with the paths that define it.

Built from the tree's file entries in languages we have a grammar for; each distinct
(language, blob) is parsed once, and only when the base (the index of an earlier tree)
does not hold it. Symlinks and gitlinks are never parsed (a symlink's blob is a target
path; a submodule's files are not in this tree). Lookups go through two maps (name →
paths, lower-cased last component → names), so a stored index is read one small shard at
a time; answers are sorted, so findings never depend on the order anything was parsed or cached in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass

from gitcorrex.git import TreeEntry
from gitcorrex.symbols.extract import BlobSymbols
from gitcorrex.symbols.index_format import Definitions, Leaves
from gitcorrex.symbols.languages import language_of
from gitcorrex.symbols.parse_many import BlobReader, Key, parse_blobs

Loader = Callable[[str], list[str]]


@dataclass(frozen=True)
class IndexStats:
    """How the index was obtained: `parsed` blobs this run, `reused` from the cache;
    `cache` is `tree` (this tree's stored index), `local` or `ledger` (an earlier
    tree's index used as the base), or `none`."""

    blobs: int
    parsed: int
    reused: int
    cache: str
    cache_problems: int


class SymbolIndex:
    """Definitions of one tree. `incomplete` paths cannot prove a symbol absent.

    Built on three loaders so a stored index is read lazily: the paths defining a name,
    the names under a lower-cased leaf, and the set of all leaves.
    """

    def __init__(self, *, incomplete: Sequence[str], load_paths: Loader,
                 load_names: Loader, load_leaves: Callable[[], Set[str]]) -> None:
        self.incomplete = sorted(incomplete)
        self._incomplete = frozenset(incomplete)
        self._load_paths = load_paths
        self._load_names = load_names
        self._load_leaves = load_leaves

    def paths_defining(self, name: str) -> list[str]:
        """Paths whose blob defines exactly `name`, sorted; [] when none does."""
        return self._load_paths(name)

    def names_with_lower_leaf(self, leaf: str) -> list[str]:
        """Defined names whose last component lower-cases to `leaf`, sorted (as stored:
        only ever used for suggestions, and each is looked up again by its own name)."""
        return self._load_names(leaf)

    def names_ending_in(self, leaf: str) -> list[str]:
        """Every defined name whose last component is exactly `leaf`, sorted."""
        return [n for n in self._load_names(leaf.lower())
                if n == leaf or n.endswith("." + leaf)]

    def existing_leaves(self, leaves: Iterable[str]) -> list[str]:
        """Those of `leaves` (lower-cased last components) that some name has, sorted."""
        known = self._load_leaves()
        return sorted(leaf for leaf in set(leaves) if leaf in known)

    def defined_in(self, path: str, name: str) -> list[str]:
        """Names `path` defines that are `name` or end with `.name`, sorted."""
        return [n for n in self.names_ending_in(name.rpartition(".")[2])
                if (n == name or n.endswith("." + name)) and path in self.paths_defining(n)]

    def is_complete(self, path: str) -> bool:
        """Whether an indexed `path` parsed without error (so it can prove an absence)."""
        return path not in self._incomplete


@dataclass(frozen=True)
class BuiltIndex:
    definitions: Definitions
    leaves: Leaves
    incomplete: list[str]
    stats: IndexStats

    def index(self) -> SymbolIndex:
        return SymbolIndex(incomplete=self.incomplete,
                           load_paths=lambda name: self.definitions.get(name, []),
                           load_names=lambda leaf: self.leaves.get(leaf, []),
                           load_leaves=self.leaves.keys)


def locate(entries: Sequence[TreeEntry]) -> list[tuple[str, Key]]:
    """(path, (language, blob)) of every file in a language with a grammar, by path."""
    located = []
    for entry in entries:
        language = language_of(entry.path) if entry.is_file else None
        if language is not None:
            located.append((entry.path, (language, entry.oid)))
    return sorted(located)


def build_index(entries: Sequence[TreeEntry], base: Mapping[Key, BlobSymbols],
                read: BlobReader, *, cache_source: str = "none", cache_problems: int = 0,
                workers: int | None = None) -> BuiltIndex:
    """Index `entries`, parsing only the (language, blob) pairs `base` lacks.

    Parsed results are folded into the maps as they arrive, so that work overlaps the
    workers' parsing of the rest.
    """
    paths_of: dict[Key, list[str]] = {}
    for path, key in locate(entries):
        paths_of.setdefault(key, []).append(path)
    keys = sorted(paths_of, key=lambda key: (key[1], key[0]))
    missing = [key for key in keys if key not in base]
    maps = _Maps()
    for key in keys:
        if key in base:
            maps.add(base[key], paths_of[key])
    parsed = parse_blobs(missing, read, workers=workers)
    for key, found in zip(missing, parsed, strict=True):
        maps.add(found, paths_of[key])
    stats = IndexStats(len(keys), len(missing), len(keys) - len(missing),
                       cache_source if len(missing) < len(keys) else "none", cache_problems)
    definitions, leaves = maps.finish()
    return BuiltIndex(definitions, leaves, sorted(maps.incomplete), stats)


class _Maps:
    """Name → paths and lower-cased leaf → names, filled blob by blob, sorted at the end."""

    def __init__(self) -> None:
        self.definitions: Definitions = {}
        self.leaves: Leaves = {}
        self.incomplete: list[str] = []

    def add(self, found: BlobSymbols, paths: list[str]) -> None:
        if not found.complete:
            self.incomplete.extend(paths)
        definitions, leaves = self.definitions, self.leaves
        for name in found.names:
            known = definitions.get(name)
            if known is not None:
                known.extend(paths)
                continue
            definitions[name] = list(paths)
            leaf = name[name.rfind(".") + 1:].lower()
            names = leaves.get(leaf)
            if names is None:
                leaves[leaf] = [name]
            else:
                names.append(name)

    def finish(self) -> tuple[Definitions, Leaves]:
        for paths in self.definitions.values():
            if len(paths) > 1:
                paths.sort()
        for names in self.leaves.values():
            names.sort()
        return self.definitions, self.leaves


def blob_symbols(definitions: Mapping[str, list[str]], located: Sequence[tuple[str, Key]],
                 incomplete: Sequence[str]) -> dict[Key, BlobSymbols]:
    """Invert a tree's definitions into per-blob symbols: the base for another tree."""
    key_of = dict(located)
    names: dict[Key, set[str]] = {key: set() for _, key in located}
    for name, paths in definitions.items():
        for path in paths:
            if path in key_of:
                names[key_of[path]].add(name)
    partial = {key_of[path] for path in incomplete if path in key_of}
    return {key: BlobSymbols(tuple(sorted(found)), key not in partial)
            for key, found in names.items()}
