"""Parsing many blobs: in this process, or on every core for a large cold index.

tree-sitter holds the GIL while it parses, so threads do not help; worker processes do.
They are forked: `spawn` would re-run the caller's main module in every worker (a script
without a `__main__` guard would start itself again), and a forked worker only runs
tree-sitter on the bytes it is sent, never touching the parent's libgit2 handles. Workers
also read their blobs (a handle of their own), so this process only hands out blob ids.
Where fork does not exist, and below `PARALLEL_MIN` blobs (not worth the workers' start),
the blobs are read and parsed in this process. The result is the same either way: extraction is a
pure function of (language, bytes).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence

from gitcorrex.symbols.extract import BlobSymbols, extract_symbols

PARALLEL_MIN = 2000
BATCH = 400

Key = tuple[str, str]  # (language, blob id)
BlobReader = Callable[[Sequence[str]], Mapping[str, bytes]]


def parse_blobs(keys: Sequence[Key], read: BlobReader, *, workers: int | None = None
                ) -> Iterator[BlobSymbols]:
    """Each blob's symbols, in the order of `keys`. `read` must be picklable (a module-level
    function or a partial of one): worker processes read their blobs themselves."""
    workers = _worker_count(len(keys)) if workers is None else workers
    batches = [keys[start:start + BATCH] for start in range(0, len(keys), BATCH)]
    if workers <= 1:
        for batch in batches:
            for names, complete in parse_batch(read, batch):
                yield BlobSymbols(names, complete)
        return
    yield from _parse_in_pool(read, batches, workers)


def _worker_count(count: int) -> int:
    import multiprocessing

    if count < PARALLEL_MIN or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return min(os.cpu_count() or 1, 8)


def _parse_in_pool(read: BlobReader, batches: Sequence[Sequence[Key]], workers: int
                   ) -> Iterator[BlobSymbols]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(parse_batch, read, batch) for batch in batches]
        for future in futures:
            for names, complete in future.result():
                yield BlobSymbols(names, complete)


def parse_batch(read: BlobReader, batch: Sequence[Key]) -> list[tuple[tuple[str, ...], bool]]:
    """Read and parse one batch (the worker entry point: plain tuples cross processes)."""
    data = read([oid for _, oid in batch])
    results = []
    for language, oid in batch:
        found = extract_symbols(language, data[oid])
        results.append((found.names, found.complete))
    return results
