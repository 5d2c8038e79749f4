"""A watchman client: one request and its answer over watchman's unix socket, in BSER.

Why not `pywatchman`: importing it costs ~19 ms (it loads `inspect`), more than a whole
kept-index refresh on a small repository; the little of the protocol a state key needs is
here. Why BSER and not watchman's JSON protocol: file names are bytes, and JSON cannot
carry a name that is not UTF-8 (a mangled name would be a path never refreshed).

Who answers matters: anyone can bind a unix socket, and a fake "nothing changed" would
give a stale key. So the peer's credentials (Linux `SO_PEERCRED`) must name a process of
this user running the watchman binary recorded at `watch start`; `peer_pid` returns it for
the caller to compare with the server pid its clocks carry. Where peer credentials
cannot be read, `request` raises: the caller scans the whole work tree instead.
"""

from __future__ import annotations

import os
import socket
import struct

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on this path
if TYPE_CHECKING:
    from typing import Any

TIMEOUT = 10.0  # seconds: a sync cookie normally takes milliseconds
_INTS = ((0x03, "=b", -(1 << 7), 1 << 7), (0x04, "=h", -(1 << 15), 1 << 15),
         (0x05, "=i", -(1 << 31), 1 << 31), (0x06, "=q", -(1 << 63), 1 << 63))
_SIZES = {0x03: (1, "=b"), 0x04: (2, "=h"), 0x05: (4, "=i"), 0x06: (8, "=q")}


class WatchmanError(Exception):
    """Watchman could not be reached, was not who it should be, or refused the request."""


class Connection:
    """One connection to the watchman server; `server_pid` is the peer's process id."""

    def __init__(self, sockname: str, binary: str, *, timeout: float = TIMEOUT) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(sockname)
            self.server_pid = peer_pid(sock, binary)
        except (OSError, WatchmanError) as exc:
            sock.close()
            raise WatchmanError(f"watchman at {sockname}: {exc}") from exc
        self._sock = sock

    def request(self, command: list[Any]) -> dict[str, Any]:
        """Send one command, return its answer; an `error` in it raises."""
        try:
            self._sock.sendall(encode_pdu(command))
            answer = self._read_pdu()
        except OSError as exc:
            raise WatchmanError(f"watchman: {exc}") from exc
        if not isinstance(answer, dict):
            raise WatchmanError("watchman: an answer that is not an object")
        if "error" in answer:
            raise WatchmanError(f"watchman: {_text(answer['error'])}")
        return answer

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read_pdu(self) -> Any:
        head = self._read(2)
        if head != b"\x00\x01":
            raise WatchmanError("watchman: not a BSER answer")
        kind = self._read(1)[0]
        if kind not in _SIZES:
            raise WatchmanError("watchman: a malformed BSER length")
        size, fmt = _SIZES[kind]
        length = struct.unpack(fmt, self._read(size))[0]
        value, _end = decode(self._read(length), 0)
        return value

    def _read(self, count: int) -> bytes:
        chunks, left = [], count
        while left:
            chunk = self._sock.recv(min(left, 1 << 20))
            if not chunk:
                raise WatchmanError("watchman closed the connection")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


def peer_pid(sock: socket.socket, binary: str) -> int:
    """The pid of the process behind `sock`, which must be this user's `binary`."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        raise WatchmanError("cannot read the peer's credentials on this system")
    pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, option, 12))
    if uid != os.getuid():
        raise WatchmanError(f"the socket's server runs as uid {uid}, not as you")
    try:
        running = os.readlink(f"/proc/{pid}/exe")
    except OSError as exc:
        raise WatchmanError(f"cannot tell which program serves the socket: {exc}") from exc
    if os.path.realpath(running) != os.path.realpath(binary):
        raise WatchmanError(f"the socket's server is {running}, not {binary}")
    return int(pid)


def encode_pdu(value: Any) -> bytes:
    """A BSER v1 PDU: magic, length, value."""
    body = bytearray()
    _encode(value, body)
    return b"\x00\x01" + _int(len(body)) + bytes(body)


def _encode(value: Any, out: bytearray) -> None:
    if isinstance(value, bool):
        out += b"\x08" if value else b"\x09"
    elif isinstance(value, int):
        out += _int(value)
    elif isinstance(value, (str, bytes)):
        data = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value
        out += b"\x02" + _int(len(data)) + data
    elif isinstance(value, (list, tuple)):
        out += b"\x00" + _int(len(value))
        for item in value:
            _encode(item, out)
    elif isinstance(value, dict):
        out += b"\x01" + _int(len(value))
        for key, item in value.items():
            _encode(str(key), out)
            _encode(item, out)
    elif value is None:
        out += b"\x0a"
    else:
        raise TypeError(f"cannot encode {type(value).__name__} as BSER")


def _int(value: int) -> bytes:
    for tag, fmt, low, high in _INTS:
        if low <= value < high:
            return bytes((tag,)) + struct.pack(fmt, value)
    raise ValueError("integer out of BSER's range")


def decode(data: bytes, pos: int) -> tuple[Any, int]:
    """One BSER value at `pos`: strings stay bytes except object keys (ASCII by contract)."""
    tag = data[pos]
    pos += 1
    if tag in _SIZES:
        size, fmt = _SIZES[tag]
        return struct.unpack_from(fmt, data, pos)[0], pos + size
    if tag == 0x02:
        length, pos = decode(data, pos)
        return data[pos:pos + length], pos + length
    if tag == 0x00:
        count, pos = decode(data, pos)
        items = []
        for _ in range(count):
            item, pos = decode(data, pos)
            items.append(item)
        return items, pos
    if tag == 0x01:
        count, pos = decode(data, pos)
        obj: dict[str, Any] = {}
        for _ in range(count):
            key, pos = decode(data, pos)
            obj[_text(key)], pos = decode(data, pos)
        return obj, pos
    if tag == 0x0B:
        return _decode_template(data, pos)
    if tag == 0x07:
        return struct.unpack_from("=d", data, pos)[0], pos + 8
    simple = {0x08: True, 0x09: False, 0x0A: None}
    if tag in simple:
        return simple[tag], pos
    raise WatchmanError(f"watchman: unknown BSER type {tag:#x}")


def _decode_template(data: bytes, pos: int) -> tuple[list[dict[str, Any]], int]:
    keys, pos = decode(data, pos)
    count, pos = decode(data, pos)
    rows = []
    for _ in range(count):
        row: dict[str, Any] = {}
        for key in keys:
            if data[pos] == 0x0C:
                pos += 1
                continue
            row[_text(key)], pos = decode(data, pos)
        rows.append(row)
    return rows, pos


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
