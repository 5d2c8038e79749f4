"""Terminal feedback for `verify`: a progress line per command, output streamed live.

Everything goes to stderr, so stdout stays the result (text summary or --json).
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence


class TerminalProgress:
    """Prints `[i/n] name …` and the command's output as it arrives."""

    def starting(self, index: int, total: int, name: str, argv: Sequence[str]) -> None:
        label = "setup" if index == 0 else f"{index}/{total}"
        sys.stderr.write(f"[{label}] {name} … {shlex.join(argv)}\n")
        sys.stderr.flush()

    def output(self, chunk: bytes) -> None:
        sys.stderr.buffer.write(chunk)
        sys.stderr.flush()


def write_verbatim(data: bytes) -> None:
    """Print captured output exactly as the command wrote it (stderr)."""
    sys.stderr.flush()
    sys.stderr.buffer.write(data)
    if data and not data.endswith(b"\n"):
        sys.stderr.buffer.write(b"\n")
    sys.stderr.flush()
