"""Overlapping a blocking call (usually a git process) with other work on this thread."""

from __future__ import annotations

import threading
from collections.abc import Callable

TYPE_CHECKING = False  # no `typing` at run time: every hook and agent call imports this
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")


def in_background(func: Callable[[], T], *, name: str = "correx-background") -> Callable[[], T]:
    """Start `func` on a thread; the returned waiter gives its result or re-raises its error."""
    outcome: list[tuple[T | None, BaseException | None]] = []

    def target() -> None:
        try:
            outcome.append((func(), None))
        except BaseException as exc:  # re-raised in the caller's thread
            outcome.append((None, exc))

    thread = threading.Thread(target=target, name=name, daemon=True)
    thread.start()

    def wait() -> T:
        thread.join()
        value, error = outcome[0]
        if error is not None:
            raise error
        return value  # type: ignore[return-value]

    return wait
