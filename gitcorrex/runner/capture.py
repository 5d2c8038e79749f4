"""Bounded capture of a command's output: exact size and digest, head and tail kept.

A runaway command can print gigabytes; the ledger keeps the digest of everything, and as
evidence the first and last halves of the cap (the end is where the error usually is).
"""

from __future__ import annotations

import hashlib


class OutputCapture:
    """Accumulates chunks; memory stays within `cap` bytes whatever the command prints."""

    def __init__(self, cap: int) -> None:
        self.cap = max(cap, 2)
        self.size = 0
        self._digest = hashlib.sha256()
        self._head = bytearray()
        self._tail = bytearray()

    def feed(self, chunk: bytes) -> None:
        self.size += len(chunk)
        self._digest.update(chunk)
        head_room = self.cap // 2 - len(self._head)
        if head_room > 0:
            self._head += chunk[:head_room]
            chunk = chunk[head_room:]
        if chunk:
            self._tail += chunk
            excess = len(self._tail) - (self.cap - self.cap // 2)
            if excess > 0:
                del self._tail[:excess]

    @property
    def truncated(self) -> bool:
        return self.size > len(self._head) + len(self._tail)

    def kept(self) -> bytes:
        """The evidence blob: everything, or head + an omission marker + tail."""
        if not self.truncated:
            return bytes(self._head + self._tail)
        omitted = self.size - len(self._head) - len(self._tail)
        marker = f"\n[... {omitted} bytes omitted by git correx ...]\n".encode()
        return bytes(self._head) + marker + bytes(self._tail)

    def sha256(self) -> str:
        return self._digest.hexdigest()
