"""Which process on which host recorded a fact: the runtime id `<pid>-<8 random hex>` and
the host name, stamped on every event.

It tells apart two processes of the same user on the same host (two agents in two
worktrees), which identity and host alone cannot. Beside the models, free of them: every
writer stamps it (`ledger/provenance.py`, through `ledger/append.py`).
"""

from __future__ import annotations

import os
import secrets
from functools import lru_cache


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
    """Keyed by pid so a forked child gets its own id instead of its parent's."""
    return f"{pid}-{secrets.token_hex(4)}"
