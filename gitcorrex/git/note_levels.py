"""Where an append puts a note's bytes, so that it rewrites what is new, not the whole note.

A note is one blob per place; rewriting a 5,000-event note (12.6 MB) to add one line cost
0.65 to 0.77 s, and grew with every event. git already reads a note split over several fanouts
as one, deeper places first (`ab/cd/ef/<34hex>`, then `ab/cd/<36hex>`, then `ab/<38hex>`,
then the flat `<40hex>`), and so do our readers (`note_reads.py`, `notes_lookup.py`). The
writers use those places as levels, oldest lines deepest:

- depth 1 (`ab/<38hex>`, where git itself writes): the newest lines, at most `HEAD_BYTES`;
- depth 2: older lines, at most `MIDDLE_BYTES`;
- depth 3: the rest, unbounded.

An append rewrites the head with the new lines; only when the head would outgrow its
bound is it moved down into the next level (and that one, when it would outgrow its own,
into the deepest). Reading order is kept at every step, so every reader returns exactly
what it returned for the one-blob note: the bytes are the same bytes in the same order. A
part a foreign writer left flat (depth 0) is read after the head, so it joins the head.
Depths up to 3 are the ones every reader lists (`note_reads.MAX_FANOUT`): an older git
correx reading a ledger written by this one misses nothing.

Both engines (`notes_plumbing.py`, `notes_libgit2.py`) ask this module, so they write the
same blobs at the same places (tests/git compares them byte for byte).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import NamedTuple

from gitcorrex.git.note_reads import join_note_parts

HEAD_BYTES = 16 * 1024
MIDDLE_BYTES = 1024 * 1024
LEVELS = ((1, HEAD_BYTES), (2, MIDDLE_BYTES), (3, None))
DEEPEST = 3


class LevelWrite(NamedTuple):
    """The append's result for one note: the bytes to store at `depth`, and the depths
    whose blobs it replaces (their bytes are inside `data`)."""

    depth: int
    data: bytes
    cleared: tuple[int, ...]


def append_at_levels(present: Collection[int], read: Callable[[int], bytes],
                     appended: bytes) -> LevelWrite:
    """The write that adds `appended` to a note whose parts sit at depths `present`;
    `read(depth)` gives a part's bytes and is asked only for the parts being rewritten."""
    newer = [depth for depth in (1, 0) if depth in present]  # read order: deeper first
    data = join_note_parts([*(read(depth) for depth in newer), appended])
    cleared = set(newer)
    for depth, bound in LEVELS:
        if depth > 1 and depth in present:
            data = join_note_parts([read(depth), data])
            cleared.add(depth)
        if bound is None or len(data) <= bound:
            cleared.discard(depth)
            return LevelWrite(depth, data, tuple(sorted(cleared)))
    raise AssertionError("the deepest level is unbounded")  # pragma: no cover


def note_path(subject: str, depth: int) -> tuple[str, ...]:
    """The place of `subject`'s note at fanout `depth`: `depth` two-hex directories, then
    the rest of the id."""
    return (*(subject[2 * i:2 * i + 2] for i in range(depth)), subject[2 * depth:])
