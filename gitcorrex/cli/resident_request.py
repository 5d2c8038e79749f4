"""The call as the resident process's child reads it from its caller (cli/resident.py):
the request's fields, the caller's three standard streams, and the stop signals it sent
after them. Read by the child, never by the accept loop, so a caller that connects and
sends nothing holds up only its own child."""

from __future__ import annotations

import os
import socket
import sys
from contextlib import suppress

MAX_REQUEST = 1 << 24  # far above what exec allows the arguments and environment


def receive_request(conn: socket.socket) -> tuple[list[bytes], list[int], bytes] | None:
    """The caller's request (NUL-separated fields), its three standard streams and what it
    sent after the request (stop signals to pass on); None for anything else (its
    descriptors closed). The peer's user was checked before the fork (`Server.start`)."""
    conn.settimeout(5.0)
    fds: list[int] = []
    try:
        data, ancillary, _, _ = conn.recvmsg(65536, socket.CMSG_SPACE(3 * 4))
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds += [int.from_bytes(payload[i:i + 4], sys.byteorder, signed=True)
                        for i in range(0, len(payload) - len(payload) % 4, 4)]
        if len(data) < 4:
            raise ValueError("short request")
        size = int.from_bytes(data[:4], "little")
        if size > MAX_REQUEST:
            raise ValueError("request too large")
        body = data[4:]
        while len(body) < size:
            chunk = conn.recv(size - len(body))
            if not chunk:
                raise ValueError("request cut short")
            body += chunk
        if len(fds) != 3:
            raise ValueError("three descriptors expected")
    except (OSError, ValueError):
        for fd in fds:
            with suppress(OSError):
                os.close(fd)
        return None
    conn.settimeout(None)
    return body[:size].split(b"\0"), fds, body[size:]


def call_of(fields: list[bytes]) -> tuple[list[str] | None, dict[str, str] | None]:
    """The call's arguments and environment from the request's fields."""
    try:
        count = int(fields[6])
    except (ValueError, IndexError):
        return None, None
    args = [os.fsdecode(arg) for arg in fields[7:7 + count]]
    if len(args) != count:
        return None, None
    environ: dict[str, str] = {}
    for entry in fields[7 + count:]:
        name, equals, value = os.fsdecode(entry).partition("=")
        if not equals:
            return None, None
        environ[name] = value
    return args, environ
