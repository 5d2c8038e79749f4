"""Which process on which host recorded a fact: the runtime id `<pid>-<8 random hex>`, the
host name, and the runtime's name, stamped on every event.

The runtime id tells apart two processes of the same user on the same host, which identity
and host alone cannot. But every hook call and every command is a process of its own, so
what stays the same across one agent's calls is the name its orchestrator gives it:
`CORREX_RUNTIME`, inherited by the agent's hooks and shells. A session step is worked on
by the runtime actor that started it (session/runtime_actor.py). Beside the models, free of
them: every writer stamps it (`ledger/provenance.py`, through `ledger/append.py`).
"""

from __future__ import annotations

import os
from functools import lru_cache

from gitcorrex.errors import ConfigError

RUNTIME_VARIABLE = "CORREX_RUNTIME"
MAX_RUNTIME_NAME = 200


def host_name() -> str:
    """This machine's name as `socket.gethostname()` gives it. On POSIX that is uname's
    node name, read here without importing `socket` (~8 ms of the plain verify path)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket  # pragma: no cover - Windows

    return socket.gethostname()


def runtime_id() -> str:
    """`<pid>-<8 random hex>`: unique per process even when pids are reused."""
    return _runtime_id(os.getpid())


@lru_cache(maxsize=4)
def _runtime_id(pid: int) -> str:
    """Keyed by pid so a forked child gets its own id instead of its parent's. The suffix
    is what `secrets.token_hex(4)` gives (the system's random source) without importing
    `secrets` (with `hmac`, `random`, `base64`: ~5 ms of every verify's start-up)."""
    return f"{pid}-{os.urandom(4).hex()}"


def runtime_name() -> str | None:
    """The runtime's name from `CORREX_RUNTIME` (None when unset or empty); ConfigError
    (exit 2) for one that is too long or holds a control character, which no reader could
    print or compare safely."""
    name = os.environ.get(RUNTIME_VARIABLE, "")
    if not name:
        return None
    if len(name) > MAX_RUNTIME_NAME or not name.isprintable():
        raise ConfigError(f"{RUNTIME_VARIABLE} must be printable text of at most "
                          f"{MAX_RUNTIME_NAME} characters",
                          hint=f"name the agent runtime plainly, e.g. {RUNTIME_VARIABLE}=worker-1")
    return name
