"""A whole ledger line read into its payload class, built per payload class on first use.

What is deferred, and why: the class a line is read into is a pydantic subclass of the
payload class (~1 ms to make) whose validator is built on its first line (~1-3 ms). A
reader names the payload classes it matches on and pays only for those its lines hold: a
session fold names eleven, and a long session's note holds four or five of them. Nothing
here imports a payload module; the reader already has the classes it names.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal, TypeVar

from pydantic import Field

from gitcorrex.model.record import EventPayload

# The envelope's keys as a payload read from a whole line sees them: accepted, not checked
# (the ledger's scan checked them already), never dumped with the payload.
_ENVELOPE: dict[str, Any] = {"v": int, "id": str, "at": str, "subjects": Any,
                             "session": Any, "seq": Any, "stage": Any, "step": Any,
                             "state_key": Any, "actor": Any, "tool": Any}

_Payload = TypeVar("_Payload", bound=EventPayload)

READ_EXTRA: Literal["ignore"] = "ignore"  # how every read of a recorded payload treats unknown keys


@cache
def line_class(payload: type[_Payload]) -> type[_Payload]:
    """The class a whole line of `payload`'s kind is read into: the payload class itself
    (so readers match on it), taking the envelope's keys and the `kind` tag beside it."""
    namespace: dict[str, Any] = {
        "__module__": payload.__module__,
        "__qualname__": f"{payload.__qualname__}Line",
        "__annotations__": {"kind": Literal[payload.KIND], **_ENVELOPE},
        "kind": Field(exclude=True),
        **{name: Field(default=None, exclude=True) for name in _ENVELOPE},
    }
    return type(f"{payload.__name__}Line", (payload,), namespace)


def read_line(line: bytes, payload: type[_Payload]) -> _Payload:
    """`line` (a whole canonical ledger line of `payload`'s kind) read into `payload`'s
    class; raises pydantic's ValidationError when its fields do not fit.

    Keys the class does not know, at any depth, are skipped (`extra="ignore"` for this read
    only; writing stays strict): a newer writer may add a field, and an older reader must
    still count its pass as a pass (STYLE: readers tolerate unknown fields)."""
    return line_class(payload).model_validate_json(line, extra=READ_EXTRA)
