"""A whole ledger line read into its payload class, and, in the same parse, who wrote it.

Why the line is read straight into the payload class: the envelope's keys (`v`, `id`,
`actor`, ...) are keys the payload class does not know, and every read of a recorded
payload skips unknown keys (`READ_EXTRA`: a newer writer may add one, STYLE). So no
second class is made per kind, and the payload's validator (built on its first line,
`defer_build`) is the only one a reader pays for. Nothing here imports a payload module;
the reader already has the classes it names.

Why a second class for the writer: a reader that prints a line needs its payload and its
writer. Reading the writer apart (`note_lines.LineActor`) walks the whole line again,
~35,000 instructions on a 1 KB observation, a third of the payload read; the payload
class with the envelope's `actor` added gets both from one walk.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal, TypeVar

from pydantic import Field

from gitcorrex.model.events import ReadActor
from gitcorrex.model.record import EventPayload

_Payload = TypeVar("_Payload", bound=EventPayload)

READ_EXTRA: Literal["ignore"] = "ignore"  # how every read of a recorded payload treats unknown keys


def read_line(line: bytes, payload: type[_Payload]) -> _Payload:
    """`line` (a whole canonical ledger line of `payload`'s kind) read into `payload`'s
    class; raises pydantic's ValidationError when its fields do not fit.

    Keys the class does not know, at any depth, are skipped (`extra="ignore"` for this read
    only; writing stays strict): the envelope's keys, and a field a newer writer added (an
    older reader must still count its pass as a pass)."""
    return payload.model_validate_json(line, extra=READ_EXTRA)


def read_written(line: bytes, payload: type[_Payload]) -> tuple[_Payload, ReadActor]:
    """`read_line` and the line's writer (the envelope's `actor`), from one parse."""
    read = _with_writer(payload).model_validate_json(line, extra=READ_EXTRA)
    return read, read.actor  # the field _with_writer adds


@cache
def _with_writer(payload: type[_Payload]) -> type[_Payload]:
    """`payload`'s class plus the envelope's `actor` (never dumped): a subclass, so what
    it reads is still matched as a `payload`. Made on first use (~0.5 ms)."""
    namespace: dict[str, Any] = {
        "__module__": payload.__module__,
        "__qualname__": f"{payload.__qualname__}Written",
        "__annotations__": {"actor": ReadActor},
        "actor": Field(exclude=True),
    }
    return type(f"{payload.__name__}Written", (payload,), namespace)
