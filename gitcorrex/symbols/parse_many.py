"""Parsing many blobs: in this process, or on every core for a large cold index.

tree-sitter holds the GIL while it parses, so threads do not help; worker processes do.
They are forked: `spawn` would re-run the caller's main module in every worker (a script
without a `__main__` guard would start itself again), and a forked worker only runs
tree-sitter on the bytes it is sent, never touching the parent's libgit2 handles. Where
fork does not exist, and below `PARALLEL_MIN` blobs (not worth the workers' start), the
blobs are parsed in this process. The result is the same either way: extraction is a
pure function of (language, bytes).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence

from gitcorrex.symbols.extract import BlobSymbols, extract_symbols

PARALLEL_MIN = 2000
BATCH = 400

Item = tuple[str, bytes]  # (language, blob bytes)


def parse_blobs(items: Iterable[Item], *, count: int, workers: int | None = None
                ) -> Iterator[BlobSymbols]:
    """Each item's symbols, in order. `count` is the number of items (they may stream in)."""
    workers = _worker_count(count) if workers is None else workers
    if workers <= 1:
        for language, data in items:
            yield extract_symbols(language, data)
        return
    yield from _parse_in_pool(items, workers)


def _worker_count(count: int) -> int:
    import multiprocessing

    if count < PARALLEL_MIN or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return min(os.cpu_count() or 1, 8)


def _parse_in_pool(items: Iterable[Item], workers: int) -> Iterator[BlobSymbols]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(parse_batch, batch) for batch in _batches(items)]
        for future in futures:
            for names, complete in future.result():
                yield BlobSymbols(names, complete)


def _batches(items: Iterable[Item]) -> Iterator[list[Item]]:
    batch: list[Item] = []
    for item in items:
        batch.append(item)
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def parse_batch(batch: Sequence[Item]) -> list[tuple[tuple[str, ...], bool]]:
    """Worker entry point: plain tuples cross the process boundary."""
    results = []
    for language, data in batch:
        found = extract_symbols(language, data)
        results.append((found.names, found.complete))
    return results
