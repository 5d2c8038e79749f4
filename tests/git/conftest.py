"""Fixtures of the git/ tests: a private watchman server (`watch_helpers.py`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.git.watch_helpers import WATCHMAN, Watchman


@pytest.fixture
def watchman(monkeypatch: pytest.MonkeyPatch) -> Iterator[Watchman]:
    """A private watchman server, recorded by `watch start` through $WATCHMAN_SOCK."""
    if WATCHMAN is None:
        pytest.skip("watchman is not installed (Debian: apt-get install watchman)")
    server = Watchman()
    server.start()
    monkeypatch.setenv("WATCHMAN_SOCK", server.sock)
    try:
        yield server
    finally:
        server.close()
